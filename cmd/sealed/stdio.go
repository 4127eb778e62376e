package main

import (
	"fmt"
	"io"
	"os"
)

// stdioName is the file name that means the standard streams, as in age,
// curl and sha256sum: stdin for every input flag or argument (--file,
// --seed-file, --vkey-file, --points, --possessions, --token-file, --proof,
// --checkpoint, --body, --replay, --text-file, -c, replay check FILE,
// commit -), stdout for every output flag (commit --out, seed new --out,
// replay play --out).
const stdioName = "-"

// openInput opens the input path for reading: stdin for "-" (closing it
// is then a no-op). name is what messages call it: "stdin" or path. The
// error is the *fs.PathError's cause, for the caller to word.
func openInput(a *app, path string) (r io.ReadCloser, name string, err error) {
	if path == stdioName {
		return io.NopCloser(a.in), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, unwrapPathError(err)
	}
	return f, path, nil
}

// readInputFile reads the whole input path (stdin for "-"), at most limit
// bytes; a larger one is an error naming the limit. The error is the
// *fs.PathError's cause, for the caller to word.
func readInputFile(a *app, path string, limit int64) ([]byte, error) {
	r, _, err := openInput(a, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if int64(len(b)) > limit {
		return nil, &tooLargeError{limit}
	}
	return b, nil
}

// tooLargeError is readInputFile's error for an input over its limit.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string { return fmt.Sprintf("larger than %d bytes", e.limit) }

// oneStdin refuses (exit 2) a command line that reads stdin for more than
// one input: flags maps each input's flag name to its value.
func oneStdin(flags ...[2]string) error {
	first := ""
	for _, f := range flags {
		if f[1] != stdioName {
			continue
		}
		if first != "" {
			return usageErrorf("%s and %s both read stdin (-); at most one input can", first, f[0]).
				withHint("give one of them a file")
		}
		first = f[0]
	}
	return nil
}
