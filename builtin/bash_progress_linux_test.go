package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// A command reports progress while it runs to a caller that listens: the
// command waits until the test has seen a report counting its first output,
// so the test holds however slow the machine is.
func TestBashReportsProgress(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	flag := filepath.Join(dir, "seen")
	k := newShellKit(shell.NewLocal(), dir, nil)
	k.progressEvery = 10 * time.Millisecond
	var mu sync.Mutex
	var reports []tool.Progress
	tc := tool.NewContext(tool.WorkDirKey.Bind(dir), tool.ProgressKey.Bind(func(_ context.Context, p tool.Progress) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, p)
		if strings.Contains(p.Message, "6 bytes of output so far") {
			_ = os.WriteFile(flag, nil, 0o600)
		}
	}))
	res, err := k.bash(context.Background(), BashInput{
		Command: "echo hello; while [ ! -e seen ]; do sleep 0.01; done; echo done",
	}, tc)
	if err != nil || res.IsError {
		t.Fatalf("bash: %v %q", err, res.Content)
	}
	if res.Content != "hello\ndone\n" {
		t.Errorf("output = %q", res.Content)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) == 0 {
		t.Fatal("no progress reported")
	}
	for i, p := range reports {
		if p.Total != 120 {
			t.Errorf("report %d: total = %v, want the timeout in seconds (120)", i, p.Total)
		}
		if i > 0 && p.Done < reports[i-1].Done {
			t.Errorf("report %d went back: %v after %v", i, p.Done, reports[i-1].Done)
		}
		if !strings.Contains(p.Message, "of at most 2m0s; ") {
			t.Errorf("report %d: message %q", i, p.Message)
		}
	}
}

// Without a listener the command's output is not counted and nothing runs
// beside it.
func TestBashWithoutProgressListener(t *testing.T) {
	noLeaks(t)
	k := newShellKit(shell.NewLocal(), t.TempDir(), nil)
	res, err := k.bash(context.Background(), BashInput{Command: "echo hi"}, tool.NewContext())
	if err != nil || res.Content != "hi\n" {
		t.Fatalf("bash = %q, %v", res.Content, err)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 1023: "1023 bytes", 1024: "1.0 KiB", 4300: "4.2 KiB", 3 << 20: "3.0 MiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
