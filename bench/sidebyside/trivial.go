package sidebyside

import (
	"fmt"
	"net/http"
	"os"
	"strings"
)

// trivialEnv, when set in the environment of this program, makes it the
// trivial server listening on the address it holds (ServeTrivialIfAsked):
// the benchmark runs the trivial server as a child process of its own
// binary, as `sealed serve` is one, so that neither shares a Go runtime
// with the load generator.
const trivialEnv = "SIDEBYSIDE_TRIVIAL_ADDR"

// trivialJSON is the trivial server's answer: a JSON object of exactly
// 1,024 bytes.
var trivialJSON = func() []byte {
	head := `{"commitment":"` + strings.Repeat("ab", 32) + `","found":true,"note":"the trivial net/http server of the side-by-side benchmark","padding":"`
	tail := `"}`
	return []byte(head + strings.Repeat("x", 1024-len(head)-len(tail)) + tail)
}()

// ServeTrivialIfAsked serves trivialJSON on every path at the address in
// $SIDEBYSIDE_TRIVIAL_ADDR and never returns, if that variable is set;
// otherwise it returns at once. The command's main and the package's
// TestMain call it first.
func ServeTrivialIfAsked() {
	addr := os.Getenv(trivialEnv)
	if addr == "" {
		return
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(trivialJSON)
	})
	err := http.ListenAndServe(addr, h)
	fmt.Fprintln(os.Stderr, "trivial server:", err)
	os.Exit(1)
}
