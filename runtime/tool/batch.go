package tool

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolgen/toolgen/runtime/schema"
)

// ExecuteBatch runs the calls of one model response and returns their
// results in call order. The calls run in parallel only when parallelism is
// enabled (WithConcurrency), there are two or more of them, and every tool
// is concurrency-safe with an interrupt behaviour that can share a worker;
// otherwise they run one after another. When ctx is cancelled, calls that
// have not started are answered as cancelled. A tool may run a batch of its
// own through the same executor: when the pool is full, that batch's calls
// run one after another on the slot the tool already holds.
func (e *Executor) ExecuteBatch(ctx context.Context, calls []Call, tc Context) []Result {
	results := make([]Result, len(calls))
	if !e.Parallel(calls) {
		for i, c := range calls {
			results[i] = e.Execute(ctx, c, tc)
		}
		return results
	}
	slots := make(chan struct{}, e.perBatch)
	// A batch run by a call that holds a slot of the pool (a tool running
	// a batch of its own) must not wait for a slot: the outer calls may
	// hold them all, waiting for this batch. Its calls take a free slot
	// when there is one and otherwise run here, on the caller's.
	nested, inSlot := ctx.Value(heldSlot{e}) != nil, ctx
	if !nested {
		inSlot = context.WithValue(ctx, heldSlot{e}, true)
	}
	var wg sync.WaitGroup
	for i, c := range calls {
		if !acquire(ctx, slots) {
			results[i] = cancelled(c, ctx.Err())
			continue
		}
		if nested && !tryAcquire(e.pool) {
			results[i] = e.Execute(ctx, c, tc)
			<-slots
			continue
		}
		if !nested && !acquire(ctx, e.pool) {
			<-slots
			results[i] = cancelled(c, ctx.Err())
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-e.pool; <-slots }()
			results[i] = e.Execute(inSlot, c, tc)
		}()
	}
	wg.Wait()
	return results
}

// heldSlot marks the context of a call that holds a slot of e's pool.
type heldSlot struct{ e *Executor }

func tryAcquire(sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
		return false
	}
}

func acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func cancelled(c Call, err error) Result {
	return FailureWith(fmt.Sprintf("Tool '%s' was not executed: %s.", schema.Echo(NormalizeName(c.Name)), cancelWord(err)), err)
}

// Parallel reports whether ExecuteBatch would run these calls in parallel:
// parallelism is enabled (WithConcurrency), there are two or more calls,
// and every tool is found, Safe, and has an interrupt behaviour that can
// share a worker.
func (e *Executor) Parallel(calls []Call) bool {
	if e.pool == nil || len(calls) < 2 {
		return false
	}
	for _, c := range calls {
		t, ok := e.find(NormalizeName(c.Name))
		if !ok {
			return false
		}
		if d, _ := safeDefinition(t); d.Concurrency != Safe || !d.Interrupt.SharesWorker() {
			return false
		}
	}
	return true
}
