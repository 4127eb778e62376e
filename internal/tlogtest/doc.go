// Package tlogtest starts the peers' programs the transparency-log tests
// run against sealed: Tessera's fsck (github.com/transparency-dev/tessera
// /cmd/fsck v1.0.4) and torchwood's litewitness and witnessctl
// (filippo.io/torchwood/cmd/... v0.6.1, with Debian's ssh-agent and
// ssh-keygen). They are looked up on PATH (.ci/run installs them with go
// install); a missing program skips the test, or fails it when the
// environment variable CI is "true".
package tlogtest
