package cmdbuf_test

import (
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
)

// A driver encodes a command's packets straight into the buffer's free
// room and commits them: no copy unless they outgrow the room, and then
// the buffer is what Append would have made.
func ExampleBuffer_Tail() {
	b := cmdbuf.NewBuffer(16)
	b.Append(cmdbuf.AppendNop(nil, 9)) // 10 of 16 dwords used
	for i := range 2 {
		words := b.Tail()
		words = cmdbuf.AppendWait(words, cmdbuf.Wait{Drain: cmdbuf.StageColor.Mask(), Hold: cmdbuf.AllStages})
		copied := b.Commit(words)
		fmt.Printf("wait %d: copied %v, chunks %d, last at %+v\n", i, copied, len(b.Chunks()), b.Last())
	}
	// Output:
	// wait 0: copied false, chunks 1, last at {Chunk:0 Off:10}
	// wait 1: copied true, chunks 2, last at {Chunk:1 Off:0}
}
