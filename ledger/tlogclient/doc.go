// Package tlogclient reads any C2SP tlog-tiles log
// (https://c2sp.org/tlog-tiles) over HTTP with only its URL and verifier
// key: [Client.Audit] re-derives the whole tree from the entry bundles and
// checks every tile and the checkpoint, [Client.ProveInclusion] builds an
// inclusion proof from tiles, and [Client.Watch] checks a new checkpoint
// against one seen before (a monitor: a fork or a rollback is a
// *[WatchError]).
//
// Tiles read for proofs go through golang.org/x/mod/sumdb/tlog's
// [tlog.TileHashReader], which checks each tile against the checkpoint's
// root before using it. Checkpoints are opened with
// [ledger.OpenCheckpoint]; witness cosignatures are checked with a
// [witness.Policy].
package tlogclient
