// Shared helpers of the proof-of-space reference tests: hex, the K = 20 seed of the published
// vectors, and its tables built once per test binary and per mode (a K = 20 build takes seconds).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pos_reference.hpp"

namespace pos_test {

inline std::vector<std::uint8_t> from_hex(std::string_view text) {
  std::vector<std::uint8_t> out(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::uint8_t(std::stoul(std::string(text.substr(2 * i, 2)), nullptr, 16));
  return out;
}

inline std::string hex(std::span<const std::uint8_t> bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto b : bytes) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

// The seed of Subspace's crates/subspace-proof-of-space/src/chiapos/tables/tests.rs and of
// Abundance's src/chia/tests.rs.
inline constexpr pos_ref::Seed subspace_test_seed{35, 2,  52, 4,   51,  55,  23, 84, 91, 10, 111, 12, 13,  222, 151, 16,
                                                  228, 211, 254, 45, 92, 198, 204, 10, 9, 10, 11, 129, 139, 171, 15, 23};

// Two K = 26 proofs (the first two of the record, s-buckets 0 and 1) from a plot file that
// sprig's plotter wrote on an NVIDIA H100 (`sprig-plot plot --k 26 --sector-id 02…02`,
// record 0, 2026-11-27) and pos_reference_verify_plot accepted with all its 65,536 proofs:
// the 32-bit ys of K = 26, which no plot the tests can make reaches.
inline constexpr pos_ref::Seed k26_record_seed{
    0xe6, 0xd2, 0x5d, 0x3f, 0xeb, 0x96, 0x52, 0x69, 0x60, 0xa9, 0x92, 0xcb, 0x85, 0x20, 0x76, 0x92,
    0x39, 0xd1, 0x1f, 0x7a, 0xa7, 0x17, 0x58, 0x16, 0xa5, 0x66, 0xf1, 0x09, 0xbd, 0xbf, 0x79, 0x9f};
inline constexpr std::string_view k26_proof_s0 =
    "9129286fa4ba534bfa6418560507b034cbdd0f59ec0ed72aeea6cb06a1f4de9c7a33dd4b3f301e11726655273d400c470f698d9f"
    "f04f611c0dec33e4cd5461f1126d81ee3efc0503e9a8be52e8760535ddda0e198c39ef0bb48d92d7e3f60eaa0949562112476b4b"
    "59292565b761e6cd77bfb86a5b8561e52bd0b70b84ccb3863e5af2054f4d427a1026820b7bad6e251d4a1c11b578b3c40a36ec08"
    "9dd5ee30f3aee1fac3e4c4a64e0f6641d4a06587d5ec46ceb22b67c2256438bef6fdb9b7f9f6b367f253f4f769de5265c0d90dfe";
inline constexpr std::string_view k26_proof_s1 =
    "bc4cbbe64d3d882391d4aba64b0fc47c9a22f5a492ffc648f0c326d5315aa167a28a2c01b7dc339f81440bb4afc54931494a46d4"
    "67e2002b346bde4d0d5d644a910585d0e753ce7e8f4ccb6271bea1fc7e7a73e77e4d891fe2db2011fb6edd0f4982f520a9865440"
    "8886adbfb2aaca2e097ea4716b98c911aef3e1ce4af78778834a08618990d2fb9756d7122ad3285f03a10a2be6d3459f9324d6cf"
    "a0bac84dfa1a1e2f034c285a3a9f876270c14c24863cd70b15550400675cd3a8b9aaf4831236f47016f124401eaaeb3396d9460e";

// Two K = 27 proofs (the first two of the record: s-buckets 3 and 4, none was found for 0..2)
// of record 0 of the same sector at K = 27, written by sprig's plotter on an NVIDIA H200
// (`sprig-plot plot --k 27 --records 2 --sector-id 02…02`, 2026-12-02), whose 65,536 proofs
// the device verifier and pos_reference_verify_plot accepted: ys of 33 bits, which no plot
// the tests can make reaches. The record's seed is k26_record_seed (the seed does not
// depend on K).
inline constexpr std::uint32_t k27_proof_s3_bucket = 3, k27_proof_s4_bucket = 4;
inline constexpr std::string_view k27_proof_s3 =
    "ca9ee26c79947d2f1db7d7e614ebffd15f85da716ea77e030869edb762eee4c5f10384ed3418b85362aef46d22a2910691d39a9d"
    "a3335b5611f561080df20c046e9ec7a55471f6b9400f2cc9861e2648114749ea3cf64f5e95e36a50126c44b78d0e8cf873b00e11"
    "22ef2393d5c384e4493fc1adf5697d5b95bcea009add57de07902bcbf0288a54a43235ca2c70fec0d58d782b591a3dceffc77035"
    "93ad27b2df4eac6079d85786f151810bc22d18377d9cbcc911d7e48cc049311276c430b6e4b9dff5f9f8fe09da9973c5ab5581cb"
    "23d92834cd7a1bc7";
inline constexpr std::string_view k27_proof_s4 =
    "5cae6f8b446bde5f2ed0d9f1d2c649bc69ae0dfeb4d21ba4e8bed2114ffd4398c0cce9e4b3ad55602f45a10dc2853eeb8f73a5a4"
    "a8aa4551a5e9aab0e349cf47659f2f407f9bd8356de56a561ef61d2b1b5e4ea691ce3666c91936a4b4535f20bd657a489fb7dd76"
    "ba63304baeb6dba11be5ba8fb8596df83eb47ca177cc8d2476e8ecbb5bfe0fc481a3b9f6aa84da8999d0a5bed35af9bea9aa7176"
    "36e83dba977cf188eec36bc2cda67eba6191a10c92feba6665f41c1b2032d7ab168780a3f6e32fe852528d743fa32c748af82469"
    "a238275e2712a134";

// The same at K = 28 (ys of 34 bits; tables 3 and 4's metadata in two buffers on the device):
// the first two proofs (s-buckets 3 and 6) of record 0, `sprig-plot plot --k 28 --records 1
// --sector-id 02…02` on an NVIDIA H200 (2026-12-02), whose 32,768 proofs the device verifier
// and pos_reference_verify_plot accepted.
inline constexpr std::uint32_t k28_proof_s3_bucket = 3, k28_proof_s6_bucket = 6;
inline constexpr std::string_view k28_proof_s3 =
    "1f8850eb3354b2afdd348ff41e07894721943d7c71ac96cff8472de4896b056e5c968373bf0fdceb832ccfc3aa6f69c287e5bc8f"
    "c1bd53674d4788a05241a7ddafd95960a48c42a2c0d7cf65fafcae4250d6be37cd83b64c845de6744d44081f8408f3d8176878b6"
    "c626644e61ee65a52dea9b78f75c7b7839bb294ad976562d17d6216cd4549b9fb896e40abfd1c25524e38fc5ae291f8d111f6417"
    "5e1e354c3753f03f2a9f96ee46e4d89d9332fd7555293bdd3d73f00e97f70fe6d768fe209760b5e6b33c36588d1bd9253cc3fb46"
    "fae6b614dbfbc8be542b73d0ba165674";
inline constexpr std::string_view k28_proof_s6 =
    "c1bf5b56f9eee1cff586399c587d51f65c0c90bfaf8f367522138f2c1b8706151d0212ba06985cee46513aa29b92373130f28b97"
    "9c4deb0ca020bddf965bb081b9e1a175b7fa73cac764ce141890766af6b471d1c15d55ebaf9449ff77acaf9669b78ae67dca2132"
    "d77d3e2b1a99533468bf71d43aa19983dceda2425ae7280d52ccee3466b99cf80cfa292a4b1bc718de841e690400ed3a1040809e"
    "67959bf82b92130d5d6840712fca0fb70e1132aa52953162c5a4864ec78f1c1093ae52384a53b965245a1667f79570e9f6ba80e9"
    "1673c483038cab05ae96564c902a4e5a";

inline const pos_ref::Tables& k20_tables(pos_ref::Mode mode) {
  if (mode == pos_ref::Mode::Abundance) {
    static const pos_ref::Tables abundance = pos_ref::build_tables(subspace_test_seed, 20, mode);
    return abundance;
  }
  static const pos_ref::Tables subspace = pos_ref::build_tables(subspace_test_seed, 20, mode);
  return subspace;
}

inline const pos_ref::PosProofs& k20_proofs(pos_ref::Mode mode) {
  if (mode == pos_ref::Mode::Abundance) {
    static const pos_ref::PosProofs abundance = pos_ref::create_proofs(k20_tables(mode));
    return abundance;
  }
  static const pos_ref::PosProofs subspace = pos_ref::create_proofs(k20_tables(mode));
  return subspace;
}

// Subspace's K = 20 proofs for that seed (challenge index -> proof), tables/tests.rs.
inline const std::string_view subspace_proof_600426542 =
    "e7a0b6a09787b5b8a2b649f6640a40089dfba1b02f2b60153379068d73ac2ceb238db9e7e8705ee9ea8122ea629c34247085ccf8a520575"
    "7b38eb709f350ffe99d587ec81785c55f1924962232c72af0ce4db70fcb5ce246b17537f0e1c0ccd31942c1d65bd3ec70cde72af17ad67f6"
    "bda4271cc543e9929612f6f41479abffc60b6ace8edf407849ec9ef85b8bf4863807fcac374315bcf0e866db8e2de7213";
inline const std::string_view subspace_proof_1011 =
    "1247ba6def525cf9f916f673328a8387cf6c8b389baf106f04b0bb58d19abb47ae4de956d13ae3c0b94958067f3bdea621efce294134ffe97"
    "a6bda44674e2828e09db7b99b65227a33b43f5533a6d6b4c884c7411837f4c54e57500bdd91e186f54ca5f55cf30c79f98d649da122863ab"
    "17468449d88b2cf580b0cfb0c6a72c3a7b850a1da9aeda4906ce9d3df884031a68f44dd662a5ec71f5fc14c837542a5";
inline const std::string_view subspace_proof_650 =
    "a303012c3b16f561f216e800682cb09d774d6ab0e2cc42d6b37ccbbca387ac2ce019bbeeafb124f03575ec819ae880b0819e4e66ab6d2d5cd"
    "4ebb387990fba64508febb6cc48fcf226b2806ace3fd33a553da86b566fbf6d1198870b6e89a717017eda4575e2a6a946045f2d103279a3fa"
    "b4e18ae568661991baff81642aed7f1a186d8700c122776dfa2626bb982124932dff75958a327aa00c2cd449db3c1f";

}  // namespace pos_test
