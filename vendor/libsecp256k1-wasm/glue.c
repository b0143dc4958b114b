/*
 * The few entry points Envelope Inspector needs from libsecp256k1, compiled to WebAssembly by
 * build.sh. Everything goes through one static buffer (io) so a call passes no pointers:
 *   io[0, 32)    e, the 32 signed bytes (AgentDNA signs them as they are: no hashing here)
 *   io[32, 96)   r || s, big-endian
 *   io[96, 161)  a 65-byte uncompressed key: verify's input, recover's and other's output
 *   io[161, 193) a scalar (other's k)
 * Verification and recovery only: no secret key ever enters this module.
 */
#define USE_NUM_NONE 1
#define USE_FIELD_INV_BUILTIN 1
#define USE_SCALAR_INV_BUILTIN 1
/* 26-bit limbs: WebAssembly multiplies 64-bit integers natively but has no 128-bit product, which
   the 52-bit limbs need (emulated, it was half of a verification's time). */
#define USE_FIELD_10X26 1
#define USE_SCALAR_8X32 1
#define USE_ENDOMORPHISM 1
#define ECMULT_WINDOW_SIZE 15
#define ECMULT_GEN_PREC_BITS 4
#define ENABLE_MODULE_RECOVERY 1
#define USE_EXTERNAL_DEFAULT_CALLBACKS 1
#include "src/secp256k1.c"

/* The host's: called on an illegal argument or an internal failure (3: a wrong inverse) (never expected), it throws. */
__attribute__((import_module("env"), import_name("fail"))) void ei_fail(int code);

/*
 * The scalar inverse of verification and recovery (s⁻¹ and r⁻¹ mod n), variable time: both are
 * public. This libsecp256k1 has only a constant-time exponentiation for it without GMP (255
 * squarings: 40% of a verification here), so build.sh renames that definition and this binary
 * extended Euclid takes its place. Each result is multiplied back and checked, as the library's
 * own GMP path does (a wrong one fails the call).
 */
static const uint64_t ORDER[4] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFFFULL};

static int wide_is_one(const uint64_t *a) { return a[0] == 1 && (a[1] | a[2] | a[3]) == 0; }

static int wide_at_least(const uint64_t *a, const uint64_t *b) {
  int i;
  for (i = 3; i >= 0; i--) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return 1;
}

/* a -= b, returning the borrow. */
static uint64_t wide_sub(uint64_t *a, const uint64_t *b) {
  uint64_t borrow = 0;
  int i;
  for (i = 0; i < 4; i++) {
    uint64_t d = a[i] - b[i] - borrow;
    borrow = (a[i] < b[i]) || (a[i] == b[i] && borrow);
    a[i] = d;
  }
  return borrow;
}

/* a += b, returning the carry. */
static uint64_t wide_add(uint64_t *a, const uint64_t *b) {
  uint64_t carry = 0;
  int i;
  for (i = 0; i < 4; i++) {
    uint64_t t = a[i] + carry;
    uint64_t c1 = t < carry;
    a[i] = t + b[i];
    carry = c1 | (a[i] < t);
  }
  return carry;
}

/* a = (top·2²⁵⁶ + a) / 2. */
static void wide_half(uint64_t *a, uint64_t top) {
  a[0] = (a[0] >> 1) | (a[1] << 63);
  a[1] = (a[1] >> 1) | (a[2] << 63);
  a[2] = (a[2] >> 1) | (a[3] << 63);
  a[3] = (a[3] >> 1) | (top << 63);
}

/* x / 2 mod n, for x below n. */
static void half_mod_order(uint64_t *x) {
  uint64_t top = 0;
  if (x[0] & 1) top = wide_add(x, ORDER);
  wide_half(x, top);
}

/* x − y mod n, for x and y below n. */
static void sub_mod_order(uint64_t *x, const uint64_t *y) {
  if (wide_sub(x, y)) wide_add(x, ORDER);
}

static void secp256k1_scalar_inverse_var(secp256k1_scalar *r, const secp256k1_scalar *x) {
  uint64_t u[4], v[4], x1[4] = {1, 0, 0, 0}, x2[4] = {0, 0, 0, 0};
  secp256k1_scalar check;
  int i;
  if (secp256k1_scalar_is_zero(x)) { /* as the exponentiation gives: 0 */
    secp256k1_scalar_clear(r);
    return;
  }
  for (i = 0; i < 4; i++) {
    u[i] = (uint64_t)x->d[2 * i] | ((uint64_t)x->d[2 * i + 1] << 32);
    v[i] = ORDER[i];
  }
  /* Invariants: x1·x ≡ u and x2·x ≡ v (mod n); gcd(u, v) = 1 as n is prime. */
  while (!wide_is_one(u) && !wide_is_one(v)) {
    while (!(u[0] & 1)) {
      wide_half(u, 0);
      half_mod_order(x1);
    }
    while (!(v[0] & 1)) {
      wide_half(v, 0);
      half_mod_order(x2);
    }
    if (wide_at_least(u, v)) {
      wide_sub(u, v);
      sub_mod_order(x1, x2);
    } else {
      wide_sub(v, u);
      sub_mod_order(x2, x1);
    }
  }
  {
    const uint64_t *inverse = wide_is_one(u) ? x1 : x2;
    for (i = 0; i < 4; i++) {
      r->d[2 * i] = (uint32_t)inverse[i];
      r->d[2 * i + 1] = (uint32_t)(inverse[i] >> 32);
    }
  }
  secp256k1_scalar_mul(&check, r, x);
  if (!secp256k1_scalar_is_one(&check)) ei_fail(3);
}

void secp256k1_default_illegal_callback_fn(const char *str, void *data) { (void)str; (void)data; ei_fail(1); }
void secp256k1_default_error_callback_fn(const char *str, void *data) { (void)str; (void)data; ei_fail(2); }

static secp256k1_context *ctx;
static unsigned char io[193];

__attribute__((export_name("io"))) unsigned char *ei_io(void) { return io; }

/* Builds the context's tables (once); 1 when ready. */
__attribute__((export_name("init"))) int ei_init(void) {
  if (!ctx) ctx = secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
  return ctx != 0;
}

/* ECDSA verification of (r, s) over e under the key, s normalised first (high-S accepted):
   1 valid, 0 not, -1 r or s not below n, -2 the key is not a curve point. */
__attribute__((export_name("verify"))) int ei_verify(void) {
  secp256k1_ecdsa_signature sig;
  secp256k1_pubkey key;
  if (!secp256k1_ecdsa_signature_parse_compact(ctx, &sig, io + 32)) return -1;
  secp256k1_ecdsa_signature_normalize(ctx, &sig, &sig);
  if (!secp256k1_ec_pubkey_parse(ctx, &key, io + 96, 65)) return -2;
  return secp256k1_ecdsa_verify(ctx, &sig, io, &key);
}

/* The key recovered from (r, s, e) with this recovery id, written at io + 96: 1 done, 0 none
   (r is not the x of a curve point for it, or the key is at infinity), -1 r or s not below n. */
__attribute__((export_name("recover"))) int ei_recover(int recid) {
  secp256k1_ecdsa_recoverable_signature sig;
  secp256k1_pubkey key;
  size_t length = 65;
  if (recid < 0 || recid > 3) return -1;
  if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, io + 32, recid)) return -1;
  if (!secp256k1_ecdsa_recover(ctx, &key, &sig, io)) return 0;
  secp256k1_ec_pubkey_serialize(ctx, io + 96, &length, &key, SECP256K1_EC_UNCOMPRESSED);
  return 1;
}

/* k·G − Q for the key Q at io + 96 and k at io + 161, written at io + 96: 1 done, 0 when k is 0
   or not below n, Q is not a curve point, or the sum is at infinity. */
__attribute__((export_name("other"))) int ei_other(void) {
  secp256k1_pubkey kg, q, sum;
  const secp256k1_pubkey *both[2];
  size_t length = 65;
  if (!secp256k1_ec_pubkey_parse(ctx, &q, io + 96, 65)) return 0;
  if (!secp256k1_ec_pubkey_negate(ctx, &q)) return 0;
  if (!secp256k1_ec_pubkey_create(ctx, &kg, io + 161)) return 0;
  both[0] = &kg;
  both[1] = &q;
  if (!secp256k1_ec_pubkey_combine(ctx, &sum, both, 2)) return 0;
  secp256k1_ec_pubkey_serialize(ctx, io + 96, &length, &sum, SECP256K1_EC_UNCOMPRESSED);
  return 1;
}
