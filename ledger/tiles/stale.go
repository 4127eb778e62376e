package tiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// tmpName matches the temporary name writeFile gives a file before its
// rename: PATH.tmp-PID-N.
var tmpName = regexp.MustCompile(`\.tmp-([0-9]+)-[0-9]+$`)

// removeStale removes from dir (the export's directory, walked once) the
// temporary files of exports that died before renaming them (a kill, a
// crash, a full disk that killed the process): files named as writeFile
// names them whose process is no longer running on this host. Without
// it they stayed in the published directory for good. A file of a
// running export, or whose process cannot be told dead, is left.
func removeStale(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		m := tmpName.FindStringSubmatch(d.Name())
		if m == nil {
			return nil
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || !processGone(pid) {
			return nil
		}
		os.Remove(p)
		return nil
	})
}
