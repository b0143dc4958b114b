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
 * squarings: 40% of a verification here), so build.sh renames that definition and Kaliski's almost
 * inverse takes its place: a binary GCD whose steps only shift and add (a run of zero bits in one
 * shift), giving x⁻¹·2ᵏ, then one multiplication by 2⁻ᵏ from a table made at init. (The binary
 * extended Euclid before it halved its cofactors mod n at every zero bit: 12% of a verification.)
 * Each result is multiplied back and checked, as the library's own GMP path does (a wrong one
 * fails the call).
 */
static const uint64_t ORDER[4] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFFFULL};

/* 1 when a < b. */
static int wide_less(const uint64_t *a, const uint64_t *b, int limbs) {
  int i;
  for (i = limbs - 1; i >= 0; i--) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return 0;
}

/* a -= b over `limbs` limbs (a >= b). */
static void wide_sub(uint64_t *a, const uint64_t *b, int limbs) {
  uint64_t borrow = 0;
  int i;
  for (i = 0; i < limbs; i++) {
    uint64_t d = a[i] - b[i] - borrow;
    borrow = (a[i] < b[i]) || (a[i] == b[i] && borrow);
    a[i] = d;
  }
}

/* a += b over 5 limbs (the sum fits). */
static void wide_add5(uint64_t *a, const uint64_t *b) {
  uint64_t carry = 0;
  int i;
  for (i = 0; i < 5; i++) {
    uint64_t t = a[i] + carry;
    uint64_t c1 = t < carry;
    a[i] = t + b[i];
    carry = c1 | (a[i] < t);
  }
}

/* A scalar as four 64-bit limbs, least significant first, and back. */
static void limbs_of(uint64_t *a, const secp256k1_scalar *x) {
  int i;
  for (i = 0; i < 4; i++) a[i] = (uint64_t)x->d[2 * i] | ((uint64_t)x->d[2 * i + 1] << 32);
}
static void scalar_of(secp256k1_scalar *x, const uint64_t *a) {
  int i;
  for (i = 0; i < 4; i++) {
    x->d[2 * i] = (uint32_t)a[i];
    x->d[2 * i + 1] = (uint32_t)(a[i] >> 32);
  }
}

/* a >>= t over 4 limbs, 0 < t < 64. */
static void shift_right4(uint64_t *a, int t) {
  a[0] = (a[0] >> t) | (a[1] << (64 - t));
  a[1] = (a[1] >> t) | (a[2] << (64 - t));
  a[2] = (a[2] >> t) | (a[3] << (64 - t));
  a[3] >>= t;
}

/* a <<= t over 5 limbs, 0 < t < 64 (the result fits). */
static void shift_left5(uint64_t *a, int t) {
  a[4] = (a[4] << t) | (a[3] >> (64 - t));
  a[3] = (a[3] << t) | (a[2] >> (64 - t));
  a[2] = (a[2] << t) | (a[1] >> (64 - t));
  a[1] = (a[1] << t) | (a[0] >> (64 - t));
  a[0] <<= t;
}

/* Zero bits at the bottom of a nonzero limb; 63 for a zero one (the rest follow in the next step). */
static int low_zeros(uint64_t limb) { return limb ? __builtin_ctzll(limb) : 63; }

/* 2⁻ᵏ mod n for k up to 512, the most an almost inverse of a 256-bit number takes; made by ei_init. */
#define MAX_K 512
static secp256k1_scalar inverse_powers_of_two[MAX_K + 1];

/* 2⁻¹ mod n = (n + 1) / 2, big-endian. */
static const unsigned char HALF[32] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4,
                                       0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa1};

/* The table, by the library's own scalar multiplication; HALF checked first (HALF + HALF = 1). */
static void make_inverse_powers_of_two(void) {
  secp256k1_scalar half, two_halves;
  int k;
  secp256k1_scalar_set_b32(&half, HALF, NULL);
  secp256k1_scalar_add(&two_halves, &half, &half);
  if (!secp256k1_scalar_is_one(&two_halves)) ei_fail(3);
  secp256k1_scalar_set_int(&inverse_powers_of_two[0], 1);
  for (k = 1; k <= MAX_K; k++) secp256k1_scalar_mul(&inverse_powers_of_two[k], &inverse_powers_of_two[k - 1], &half);
}

static void secp256k1_scalar_inverse_var(secp256k1_scalar *r, const secp256k1_scalar *x) {
  /* Invariants (Kaliski): u·s + v·r = n, and x·r ≡ −u·2ᵏ, x·s ≡ v·2ᵏ (mod n); r, s < 2n. */
  uint64_t u[4], v[4], rr[5] = {0, 0, 0, 0, 0}, ss[5] = {1, 0, 0, 0, 0};
  static const uint64_t ORDER5[5] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFFFULL, 0};
  secp256k1_scalar almost, check;
  int k = 0, i, t;
  if (secp256k1_scalar_is_zero(x)) { /* as the exponentiation gives: 0 */
    secp256k1_scalar_clear(r);
    return;
  }
  for (i = 0; i < 4; i++) u[i] = ORDER[i];
  limbs_of(v, x);
  while (v[0] | v[1] | v[2] | v[3]) {
    if (!(u[0] & 1)) {
      t = low_zeros(u[0]);
      shift_right4(u, t);
      shift_left5(ss, t);
      k += t;
    } else if (!(v[0] & 1)) {
      t = low_zeros(v[0]);
      shift_right4(v, t);
      shift_left5(rr, t);
      k += t;
    } else if (wide_less(v, u, 4)) {
      wide_sub(u, v, 4);
      shift_right4(u, 1);
      wide_add5(rr, ss);
      shift_left5(ss, 1);
      k++;
    } else {
      wide_sub(v, u, 4);
      shift_right4(v, 1);
      wide_add5(ss, rr);
      shift_left5(rr, 1);
      k++;
    }
    if (k > MAX_K) ei_fail(3);
  }
  if (!wide_less(rr, ORDER5, 5)) wide_sub(rr, ORDER5, 5);
  /* x⁻¹·2ᵏ = n − r */
  {
    uint64_t a[4];
    for (i = 0; i < 4; i++) a[i] = ORDER[i];
    wide_sub(a, rr, 4);
    scalar_of(&almost, a);
  }
  secp256k1_scalar_mul(r, &almost, &inverse_powers_of_two[k]);
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
  if (!ctx) {
    make_inverse_powers_of_two();
    ctx = secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
  }
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
