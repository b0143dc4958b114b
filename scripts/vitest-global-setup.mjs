// The CLI tests run the compiled command line: compile it from the current sources first.
import { buildCli } from './build-cli.mjs';

export default async function setup() {
  await buildCli();
}
