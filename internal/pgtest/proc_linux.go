package pgtest

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// nobody is the uid and gid of Debian's user nobody (group nogroup), which
// pgtest runs initdb and postgres as when the tests run as root.
const nobody = 65534

// runAs is the user and group a child process runs as.
type runAs = syscall.Credential

// credential returns the user to run initdb and postgres as: nil (this
// process's user) normally, or nobody when this process is root, since
// both programs refuse to run as root.
func credential() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	return &syscall.Credential{Uid: nobody, Gid: nobody}, nil
}

// procAttr runs a child as cred (nil: this process's user), in a process
// group of its own (so a terminal's ^C reaches it only through pgtest's
// shutdown), and has the kernel send it SIGQUIT, PostgreSQL's immediate
// shutdown, if the test binary dies without stopping it.
func procAttr(cred *runAs) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
}

// checkSearchable returns an error unless every directory from dir up to
// the root is searchable by others (mode o+x), which user nobody needs to
// reach the temporary directory below dir.
func checkSearchable(dir string) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("pgtest: %s has mode %v, so user nobody (uid %d), which runs postgres when tests run as root, cannot reach the temporary directory below it; set TMPDIR to a directory every user can search, such as /tmp",
				d, fi.Mode().Perm(), nobody)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}
