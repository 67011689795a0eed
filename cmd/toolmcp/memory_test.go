package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/schema"
)

// heapMB is the live heap after a full collection, in MB.
func heapMB() float64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// bareInitialize sends n initialize requests, each opening a session and
// sending nothing more, over workers connections, and returns the status
// codes' counts.
func bareInitialize(ctx context.Context, t *testing.T, url string, n, workers int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	codes := map[int]int{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			for i := range jobs {
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bare-%d","version":"0"}}}`, i)
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				mu.Unlock()
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return codes
}

// TestBareInitializeMemory: 3,000 initialize requests that never come back
// (no initialized notification, no call) cost toolmcp little, since a
// session's run is made on first use, and are released after the init
// timeout, the memory with them; with the default cap of 1,000 sessions
// the rest are refused 503.
func TestBareInitializeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 3,000 sessions")
	}
	const n = 3000
	ctx := testContext(t)
	root := workspace(t)
	srv, url := serveHTTP(t, options{root: root, mode: schema.Enforce, sandbox: sandboxOff,
		maxSessions: n, initTimeout: time.Hour})
	before := heapMB()
	codes := bareInitialize(ctx, t, url, n, 4)
	if codes[http.StatusOK] != n {
		t.Fatalf("initialize answers: %v, want %d × 200", codes, n)
	}
	if got := srv.mcp.Sessions(); got != n {
		t.Fatalf("Sessions() = %d, want %d", got, n)
	}
	held := heapMB()
	perSession := (held - before) * 1024 / n
	t.Logf("heap: %.1f MB before, %.1f MB with %d bare sessions (%.1f KB each)", before, held, n, perSession)
	if !raceEnabled && held > 100 {
		t.Errorf("the heap holds %.1f MB with %d bare sessions, want at most 100 MB", held, n)
	}
	// Released: Close ends them here (the init timeout does it below).
	_ = srv.mcp.Close()
	waitUntil(ctx, t, func() bool { return srv.mcp.Sessions() == 0 }, func() string { return "the sessions were never released" })
	after := heapMB()
	t.Logf("heap after release: %.1f MB", after)
	if !raceEnabled && after-before > (held-before)/4 {
		t.Errorf("the heap did not return after release: %.1f MB before, %.1f MB held, %.1f MB after", before, held, after)
	}
}

// TestSessionBounds: with the default cap, initialize beyond 1,000 open
// sessions is refused 503 with a sentence; sessions that never come back
// after initialize are released by the init timeout, and new ones are
// served again.
func TestSessionBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,000 sessions")
	}
	ctx := testContext(t)
	root := workspace(t)
	srv, url := serveHTTP(t, options{root: root, mode: schema.Enforce, sandbox: sandboxOff, initTimeout: 300 * time.Millisecond})
	codes := bareInitialize(ctx, t, url, 1100, 4)
	if codes[http.StatusOK] < 1000 || codes[http.StatusOK]+codes[http.StatusServiceUnavailable] != 1100 {
		t.Errorf("initialize answers %v, want 1,000 × 200 (more when some were released meanwhile) and the rest 503", codes)
	}
	waitUntil(ctx, t, func() bool { return srv.mcp.Sessions() == 0 }, func() string {
		return fmt.Sprintf("%d uninitialised sessions were never released", srv.mcp.Sessions())
	})
	if codes := bareInitialize(ctx, t, url, 1, 1); codes[http.StatusOK] != 1 {
		t.Errorf("initialize after the release: %v", codes)
	}
}
