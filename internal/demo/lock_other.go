//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package demo

// Hold would mark the ledger at path as in use; on this system there is no
// flock(2), so it does nothing and never fails. Build then cannot tell a
// served demo ledger from an idle one (it still refuses one holding
// entries beyond the demo's own).
func Hold(path string) (release func() error, err error) {
	return func() error { return nil }, nil
}

// inUse always reports false here: see Hold.
func inUse(path string) (bool, error) { return false, nil }
