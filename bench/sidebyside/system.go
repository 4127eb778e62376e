package sidebyside

import "context"

// appendLog is one system under test, opened on a fresh directory.
type appendLog interface {
	// Append adds e and returns its index once the system has made it
	// durable (sealed: after the synchronous=FULL commit; Tessera: the
	// Add future, which resolves once the entry is integrated; raw: after
	// the commit of its batch).
	Append(ctx context.Context, e *Entry) (int64, error)
	// Size is the number of entries the system holds, read back from its
	// storage after the writers stopped (a check that no append was lost).
	Size(ctx context.Context) (int64, error)
	Close() error
}

// system names one system under test and opens it.
type system struct {
	Name    string // as printed: "sealed", "tessera(64,50ms)", "raw"
	Options string // what it runs with, printed once
	open    func(ctx context.Context, dir string) (appendLog, error)
}
