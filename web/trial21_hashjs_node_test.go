package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger"
)

// TestTrial21HashJSLeafSizeBOM (trial 21, failing): hash.js leafSize
// decodes the reveal's bytes with `new TextDecoder()`, which by default
// strips a leading UTF-8 BOM (EF BB BF), so a reveal whose declaration
// starts with a BOM is counted 3 bytes smaller than ledger.RevealLeafSize
// counts it. /hash then accepts a declaration whose reveal `sealed commit`
// refuses because it could never be recorded in a ledger leaf. Runs
// static/hash.js under node (no browser needed); skipped without node.
func TestTrial21HashJSLeafSizeBOM(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	src, err := os.ReadFile("static/hash.js")
	if err != nil {
		t.Fatal(err)
	}
	bom := "\ufeff"
	reveals := []string{
		bom,
		bom + "I bid 40 on lot 2\nsalt: abc",
		// At the limit: RevealLeafSize is 65536 (refused by sealed commit),
		// hash.js counts 65533 (accepted by /hash).
		bom + strings.Repeat("a", 64848) + "\nsalt: abc",
	}
	overhead := ledger.RevealLeafSize(nil) - len(`""`)
	in, _ := json.Marshal(reveals)
	script := "globalThis.document={getElementById(){},addEventListener(){}};\n" + string(src) +
		"\nconst rs=" + string(in) + ";\nconsole.log(JSON.stringify(rs.map(r=>leafSize(new TextEncoder().encode(r)," + strconv.Itoa(overhead) + "))));\n"
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []int
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output %q: %v", out, err)
	}
	for i, r := range reveals {
		want := ledger.RevealLeafSize([]byte(r))
		if got[i] != want {
			t.Errorf("reveal %.40q (%d bytes): hash.js leafSize %d, ledger.RevealLeafSize %d (max %d)", r, len(r), got[i], want, ledger.MaxLeafSize)
		}
	}
}
