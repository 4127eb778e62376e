package testvector

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one parsed vector file.
type File struct {
	// Path is the file's path as given to Read, or "" for Parse.
	Path string
	// Header maps each key to its values in file order; a key may repeat
	// (for example several "hint:" lines).
	Header map[string][]string
	// Body is the raw bytes after the blank line.
	Body []byte
}

// Get returns the first value of key, or "" when the key is absent.
func (f *File) Get(key string) string {
	if v := f.Header[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// All returns every value of key in file order (nil when absent).
func (f *File) All(key string) []string { return f.Header[key] }

// Lines returns the body split into its non-empty lines, for vectors whose
// body is a table.
func (f *File) Lines() []string {
	var out []string
	for _, l := range strings.Split(string(f.Body), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Parse parses a vector file's contents. It returns an error when there is
// no blank line after the headers or a header line is not "key: value".
func Parse(data []byte) (*File, error) {
	head, body, ok := bytes.Cut(data, []byte("\n\n"))
	if !ok {
		return nil, fmt.Errorf("no blank line after the headers")
	}
	f := &File{Header: map[string][]string{}, Body: body}
	for _, line := range strings.Split(string(head), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("header line %q is not \"key: value\"", line)
		}
		f.Header[k] = append(f.Header[k], v)
	}
	return f, nil
}

// Read reads and parses the vector file at path; errors name the path.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f.Path = path
	return f, nil
}

// Glob reads every file matching pattern (filepath.Glob syntax), sorted by
// name. It returns an error when nothing matches, so a test cannot pass by
// reading no vectors.
func Glob(pattern string) ([]*File, error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no vector files match %s", pattern)
	}
	files := make([]*File, 0, len(paths))
	for _, p := range paths {
		f, err := Read(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// Map returns the headers with the first value of each key, for vectors
// whose keys do not repeat.
func (f *File) Map() map[string]string {
	m := make(map[string]string, len(f.Header))
	for k, v := range f.Header {
		m[k] = v[0]
	}
	return m
}
