'use strict';
// stand: the node constructs NftManager only with CAP_NET_ADMIN and catches
// its failure ("NftManager initialization failed"): it then runs without the
// ingress/egress filters and the torrent blocker, and writes no nftables
// rules on the machine.
class NftManager {
  constructor() {
    throw new Error('nftables-napi stand-in: no nftables support in this build');
  }
}
exports.NftManager = NftManager;
