// Command sealed hashes, verifies and records commit-reveal secrets: salted
// SHA-256 secret actions, game-server seed commitments, replay
// re-simulation, and the append-only ledger. Run `sealed --help`.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
