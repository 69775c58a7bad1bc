// Command traced is the program the tracer's tests trace: it links the
// driver and makes Barrier calls of known sizes and contents, from one
// goroutine, from fresh goroutines at every stack depth (so that some call
// grows its stack at entry), and from several goroutines at once, then
// executes a list. It writes one line per Barrier call it made to the file
// -expect names: the record version, the count and the records' SHA-256.
package main

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd"
)

// states are what the buffer goes through; barrier i moves it from
// states[i%len] to the next, so every array is a valid sequence.
var states = []struct {
	sync   ddi.BarrierSync
	access ddi.BarrierAccess
}{
	{ddi.SyncCopy, ddi.AccessCopyDest},
	{ddi.SyncComputeShading, ddi.AccessUnorderedAccess},
	{ddi.SyncAllShading, ddi.AccessShaderResource},
	{ddi.SyncVertexShading, ddi.AccessVertexBuffer},
	{ddi.SyncCopy, ddi.AccessCopySource},
}

func barrier(buf ddi.HResource, i int) ddi.BufferBarrier {
	from, to := states[i%len(states)], states[(i+1)%len(states)]
	return ddi.BufferBarrier{SyncBefore: from.sync, SyncAfter: to.sync, AccessBefore: from.access, AccessAfter: to.access, Resource: buf}
}

type tracker struct {
	mu    sync.Mutex
	lines []string
}

func (t *tracker) add(version string, n int, raw []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, fmt.Sprintf("%s %d %x", version, n, sha256.Sum256(raw)))
}

// barriers0094 is an array of n records, starting at state *at.
func (t *tracker) barriers0094(buf ddi.HResource, at *int, n int) []ddi.Barrier {
	bs := make([]ddi.Barrier, n)
	for i := range bs {
		bs[i] = ddi.NewBufferBarrier(barrier(buf, *at+i))
	}
	*at += n
	t.add("0094", n, ddi.AppendEncodedBarriers(nil, bs))
	return bs
}

func (t *tracker) call0094(cl *umd.CommandList, buf ddi.HResource, at *int, n int) {
	cl.Barrier(t.barriers0094(buf, at, n))
}

func (t *tracker) call0088(cl *umd.CommandList, buf ddi.HResource, at *int, n int) {
	bs := make([]ddi.Barrier0088, n)
	for i := range bs {
		bs[i] = ddi.NewBufferBarrier0088(barrier(buf, *at+i))
	}
	*at += n
	cl.Barrier0088(bs)
	t.add("0088", n, ddi.AppendEncodedBarriers0088(nil, bs))
}

// padded calls Barrier from a frame of more than 128 bytes. Go checks a
// frame that large against the stack's guard by its size, so there is a
// window of about 136 bytes of stack in which padded fits and Barrier does
// not: wider than a frame of descend, so that one depth of the sweep in
// main lands in it and Barrier grows the stack at its entry.
//
//go:noinline
func padded(cl *umd.CommandList, bs []ddi.Barrier) byte {
	var pad [160]byte
	cl.Barrier(bs)
	pad[len(bs)%len(pad)] = 1
	return pad[0]
}

// descend calls f depth frames down.
//
//go:noinline
func descend(depth int, f func()) {
	if depth == 0 {
		f()
		return
	}
	descend(depth-1, f)
}

func main() {
	wait := flag.Bool("wait", false, "print \"ready\" and wait for a line on standard input before the calls")
	expect := flag.String("expect", "", "write the Barrier calls made to this file")
	flag.Parse()
	if err := run(*wait, *expect); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		os.Exit(1)
	}
}

func run(wait bool, expect string) error {
	p, err := hwmodel.LookupProfile("discrete")
	if err != nil {
		return err
	}
	d, err := umd.Open(p, umd.Options{})
	if err != nil {
		return err
	}
	buf, err := d.CreateCommitted(umd.BufferDesc(1<<16, ddi.ResourceFlagUnorderedAccess), resource.HeapDefault)
	if err != nil {
		return err
	}
	if wait {
		fmt.Println("ready")
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return err
		}
	}
	t := &tracker{}
	cl, err := d.CreateCommandList(ddi.CommandListTypeDirect)
	if err != nil {
		return err
	}
	at := 0
	// Sizes about the capture's chunks (56 records of 0094, 51 of 0088).
	for _, n := range []int{0, 1, 3, 55, 56, 57, 113, 500, 3000} {
		t.call0094(cl, buf, &at, n)
	}
	for _, n := range []int{0, 2, 50, 51, 52, 700} {
		t.call0088(cl, buf, &at, n)
	}
	// A call from a fresh goroutine at every depth of its small first
	// stack: at one of them Barrier's own frame does not fit, and the
	// function begins again on a grown stack.
	for depth := range 300 {
		bs := t.barriers0094(buf, &at, 1+depth%7)
		done := make(chan struct{})
		go func() {
			defer close(done)
			descend(depth, func() { padded(cl, bs) })
		}()
		<-done
	}
	if err := cl.Close(); err != nil {
		return err
	}
	// Several goroutines at once, each on its own list.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := d.CreateCommandList(ddi.CommandListTypeDirect)
			if err != nil {
				errs[g] = err
				return
			}
			at := 0
			for i := range 50 {
				t.call0094(l, buf, &at, 1+(g*50+i)%60)
			}
			errs[g] = l.Close()
			l.Destroy()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	q, err := d.CreateQueue(ddi.CommandListTypeDirect)
	if err != nil {
		return err
	}
	if err := q.ExecuteCommandLists(cl); err != nil {
		return err
	}
	f := d.CreateFence()
	if err := q.Signal(f, 1); err != nil {
		return err
	}
	if err := q.Wait(f, 1); err != nil {
		return err
	}
	if err := d.WaitIdle(); err != nil {
		return err
	}
	cl.Destroy()
	if err := d.DestroyResource(buf); err != nil {
		return err
	}
	if expect != "" {
		sort.Strings(t.lines)
		if err := os.WriteFile(expect, []byte(strings.Join(t.lines, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("barrier calls: %d\n", len(t.lines))
	return nil
}
