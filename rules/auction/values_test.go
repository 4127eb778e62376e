package auction

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/internal/testvector"
)

// The values tables in testdata/values_*.txt were computed by the Python
// reference implementation of the stream in docs/rng.md (saved as
// sealed_rng.py), not by this package; each file's "command" header is the
// command that printed its body ("item v0 v1 ...", one line per item).
// Files are age-style: "key: value" headers, a blank line, the body.

type vectorFile struct {
	head map[string]string
	body []byte
}

func readVector(t *testing.T, path string) vectorFile {
	t.Helper()
	f, err := testvector.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return vectorFile{head: f.Map(), body: f.Body}
}

func (v vectorFile) int(t *testing.T, key string) int {
	t.Helper()
	n, err := strconv.Atoi(v.head[key])
	if err != nil {
		t.Fatalf("header %s: %v", key, err)
	}
	return n
}

func TestValuesVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/values_*.txt")
	if len(files) < 3 {
		t.Fatalf("found %d vector files, want 3", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			v := readVector(t, f)
			seed, err := hex.DecodeString(v.head["seed"])
			if err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.Players, cfg.Items = v.int(t, "players"), v.int(t, "items")
			cfg.ValueMin, cfg.ValueMax = v.int(t, "value_min"), v.int(t, "value_max")
			got, err := Values(seed, cfg)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(bytes.NewReader(v.body))
			rows := 0
			for sc.Scan() {
				fields := strings.Fields(sc.Text())
				item, _ := strconv.Atoi(fields[0])
				if item != rows+1 || len(fields) != cfg.Players+1 {
					t.Fatalf("bad vector line %q", sc.Text())
				}
				for s, w := range fields[1:] {
					if g := strconv.Itoa(got[rows][s]); g != w {
						t.Errorf("item %d seat %d: value %s, want %s", item, s, g, w)
					}
				}
				rows++
			}
			if rows != cfg.Items || len(got) != cfg.Items {
				t.Fatalf("%d vector rows, %d derived, want %d", rows, len(got), cfg.Items)
			}
		})
	}
}

func TestValuesBadInput(t *testing.T) {
	cfg := DefaultConfig()
	if _, err := Values(make([]byte, 31), cfg); err == nil || !strings.Contains(err.Error(), "31 bytes") {
		t.Errorf("31-byte seed: error %v, want one naming the length", err)
	}
	cfg.Players = 9
	if _, err := Values(make([]byte, 32), cfg); err == nil || !strings.Contains(err.Error(), "players is 9, expected 3..8") {
		t.Errorf("9 players: error %v", err)
	}
}
