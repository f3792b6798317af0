/**
 * Published vectors for deposit addresses (docs/decisions/0066): the BIP39 test mnemonic's account keys and first
 * addresses on each chain, as the BIPs, SLIP-0132 and wallets' test suites publish them.
 */

// BIP84, "Test vectors" (bitcoin/bips bip-0084.mediawiki); the account zpub as SLIP-0132 lists it.
export const BIP84 = {
  accountZprv:
    "zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE",
  accountZpub:
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
  rootZpub:
    "zpub6jftahH18ngZxLmXaKw3GSZzZsszmt9WqedkyZdezFtWRFBZqsQH5hyUmb4pCEeZGmVfQuP5bedXTB8is6fTv19U1GQRyQUKQGUTzyHACMF",
  first: {
    pubkey: "0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c",
    address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
  },
  second: {
    pubkey: "03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77",
    address: "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
  },
  firstChange: "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el",
};

// The same mnemonic's BIP44 account keys and first receiving addresses, as wallets and their test suites publish
// them (MetaMask shows the Ethereum ones for this mnemonic; TronWeb and Keystone's firmware tests the TRON ones).
export const ETHEREUM = {
  accountXpub:
    "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
  addresses: [
    "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0",
    "0xb6716976A3ebe8D39aCEB04372f22Ff8e6802D7A",
  ],
};
export const TRON = {
  accountXpub:
    "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd",
  addresses: [
    "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH",
    "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
    "TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx",
  ],
};
// m/84'/1'/0' of the same mnemonic and its first address on testnet.
export const TESTNET = {
  accountVpub:
    "vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc",
  first: "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl",
};

// SLIP-0132, "Bitcoin Test Vectors": the BIP44 and BIP49 account keys of the same mnemonic, kinds Bitcoin refuses.
export const SLIP132_XPUB =
  "xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj";
export const SLIP132_YPUB =
  "ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP";
