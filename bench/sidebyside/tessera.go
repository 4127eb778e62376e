package sidebyside

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/storage/posix"
	"golang.org/x/mod/sumdb/note"
	"k8s.io/klog/v2"
)

// quietKlog drops Tessera's informational klog lines ("Initializing
// directory for POSIX log", once per cell) and keeps its warnings and
// errors on stderr.
var quietKlog = sync.OnceFunc(func() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	fs.Set("logtostderr", "false")
	fs.Set("alsologtostderr", "false")
	fs.Set("stderrthreshold", "WARNING")
	klog.SetOutput(io.Discard) // the log files klog would write otherwise
})

// TesseraVersion is the version of github.com/transparency-dev/tessera this
// module requires (go.mod), printed with the results.
const TesseraVersion = "v1.0.4"

// tesseraBatchSize is the batch size of WithBatching.
const tesseraBatchSize = 64

// tesseraCheckpointInterval is Tessera's checkpoint interval, set to
// sealed's default (ledger.DefaultCheckpointInterval) so that both sign
// checkpoints as often; it does not delay the Add future, which resolves
// once the entry is integrated.
const tesseraCheckpointInterval = 500 * time.Millisecond

// tesseraSystem is Tessera's POSIX driver on a new directory with
// WithBatching(64, age), WithCheckpointInterval(500ms) and Tessera's
// defaults otherwise (no antispam, pushback at 4,096 outstanding, garbage
// collection every minute); writers wait for the Add future.
func tesseraSystem(age time.Duration) system {
	return system{
		Name: fmt.Sprintf("tessera(%d,%s)", tesseraBatchSize, age),
		Options: fmt.Sprintf("Tessera %s storage/posix, NewAppendOptions().WithCheckpointSigner(Ed25519 note signer).WithBatching(%d, %s).WithCheckpointInterval(%s), defaults otherwise (no antispam); each writer waits for its Add future (the entry integrated, files fsync'd)",
			TesseraVersion, tesseraBatchSize, age, tesseraCheckpointInterval),
		open: func(ctx context.Context, dir string) (appendLog, error) {
			return openTessera(ctx, filepath.Join(dir, "tessera"), age)
		},
	}
}

type tesseraLog struct {
	add      *tessera.Appender
	reader   tessera.LogReader
	shutdown func(context.Context) error
	cancel   context.CancelFunc
}

func openTessera(ctx context.Context, dir string, age time.Duration) (*tesseraLog, error) {
	quietKlog()
	skey, _, err := note.GenerateKey(rand.Reader, "bench.tessera.invalid/log")
	if err != nil {
		return nil, err
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		return nil, err
	}
	driver, err := posix.New(ctx, posix.Config{Path: dir})
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(context.Background())
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(signer).
		WithBatching(tesseraBatchSize, age).
		WithCheckpointInterval(tesseraCheckpointInterval)
	a, shutdown, r, err := tessera.NewAppender(lctx, driver, opts)
	if err != nil {
		cancel()
		return nil, err
	}
	return &tesseraLog{add: a, reader: r, shutdown: shutdown, cancel: cancel}, nil
}

func (t *tesseraLog) Append(ctx context.Context, e *Entry) (int64, error) {
	idx, err := t.add.Add(ctx, tessera.NewEntry(e.Body))()
	if err != nil {
		return -1, err
	}
	return int64(idx.Index), nil
}

func (t *tesseraLog) Size(ctx context.Context) (int64, error) {
	n, err := t.reader.IntegratedSize(ctx)
	return int64(n), err
}

// Close waits (at most 30 s) for the checkpoint covering every entry, as
// Tessera's shutdown does, then stops the appender's goroutines.
func (t *tesseraLog) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := t.shutdown(ctx)
	t.cancel()
	return err
}
