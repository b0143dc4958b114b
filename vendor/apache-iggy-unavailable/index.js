// See package.json: nothing here is meant to be used.
throw new Error('apache-iggy is not installed here (a placeholder stands in for it): only the laser-sdk wire module may be used');
