/**
 * The ceph.conf of our one-node Ceph cluster (docs/object-store.md, "A real radosgw"): one mon, one
 * OSD, one radosgw, every path inside one directory, cephx keys generated for the run. Pure text so
 * the choices can be read in one place.
 */

export type OsdBackend = 'memstore' | 'bluestore';

export interface CephConfInput {
  dir: string;
  fsid: string;
  monPort: number;
  rgwPort: number;
  backend: OsdBackend;
  /** memstore: the capacity it reports; bluestore: the size of its (sparse) block file. */
  storeBytes: number;
}

export function cephConf(c: CephConfInput): string {
  const d = c.dir;
  return `[global]
fsid = ${c.fsid}
mon host = v2:127.0.0.1:${c.monPort}
ms bind msgr1 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = ${d}/keyring.$name
run dir = ${d}/run
admin socket = ${d}/run/$name.asok
pid file = ${d}/run/$name.pid
log file = ${d}/log/$name.log
log to stderr = false
err to stderr = false
# Errors only: radosgw logs every request at level 1, which a benchmark turns into megabytes.
debug rgw = 0/0
debug ms = 0/0
# One OSD holds every copy: pools of size 1, placement by OSD rather than host.
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
# radosgw creates ~7 pools at its first start; with the default 32 PGs each they would pass the
# mon's limit of 250 PGs per OSD.
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool delete = true

[mon]
mon data = ${d}/mon/$cluster-$id
# A map change is proposed after 1 s by default; the first signed S3 request waits for a few of them.
paxos propose interval = 0.05
paxos min wait = 0.01

[osd]
osd data = ${d}/osd/$cluster-$id
osd objectstore = ${c.backend}
${c.backend === 'memstore' ? `memstore device bytes = ${c.storeBytes}` : `bluestore block path = ${d}/osd/block
bluestore block create = true
bluestore block size = ${c.storeBytes}
bluestore fsck on mount = false
# A test machine, not a storage node: a small cache and the smallest memory target Ceph accepts.
bluestore cache autotune = false
bluestore cache size = 134217728
osd memory target = 939524096`}

[client.rgw]
# tcp_nodelay: with Nagle's algorithm on (beast's default) every small answer waits for the client's
# delayed ACK, ~45 ms a request: a GET of 4 KiB took 52 ms instead of 7 (docs/object-store.md).
rgw frontends = beast endpoint=127.0.0.1:${c.rgwPort} tcp_nodelay=1
rgw data = ${d}/rgw
# The usage log and the gc/lc threads are for long-lived gateways.
rgw enable usage log = false
`;
}
