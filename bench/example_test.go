package bench_test

import (
	"context"
	"fmt"

	"github.com/ebref/ebref/bench"
)

// A workload is its frame as the application means it: resources, lists
// and work, no barriers. Source writes it in one strategy's barriers; the
// frame starts where the previous one ended, so the render target that
// was last sampled comes back to RENDER_TARGET from UNDEFINED for its
// clear (nothing of its old contents is kept), and is sampled after a
// barrier that waits for the colour writes. The text is
// scenario.Format's: the compiler builds the frame as a syntax tree.
func ExampleSource() {
	w := &bench.Workload{Name: "blit", Frame: `
texture RT 256x256 flags RENDER_TARGET|SHADER_RESOURCE
texture OUT 256x256 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-rt RT 0
  draw rt RT
  draw ps-srv RT rt OUT
end
execute Q L
`}
	src, err := bench.Source(w, bench.Enhanced)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(src)
	// Output:
	// texture RT 256x256 flags RENDER_TARGET|SHADER_RESOURCE layout DIRECT_QUEUE_SHADER_RESOURCE
	// texture OUT 256x256 flags RENDER_TARGET layout RENDER_TARGET
	// queue Q DIRECT
	// list L DIRECT
	//   barrier texture RT sync NONE -> RENDER_TARGET access NO_ACCESS -> RENDER_TARGET layout UNDEFINED -> RENDER_TARGET
	//   clear-rt RT 0
	//   draw rt RT
	//   barrier texture RT sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE
	//   draw rt OUT ps-srv RT
	// end
	// execute Q L
	// expect reference
}

// Run runs a workload with every strategy on the profiles asked for and
// returns a row per run: here the blit frame on discrete, where legacy
// decompresses the render target for its generic read state, the oracle,
// which replaces the enhanced barriers with the least the accesses need,
// just in time, saves only their packets' issue cycles, and best, which
// moves the oracle's write-backs off the command processor's path, saves
// more.
func ExampleRun() {
	w := &bench.Workload{Name: "blit", Frame: `
texture RT 256x256 flags RENDER_TARGET|SHADER_RESOURCE
texture OUT 256x256 flags RENDER_TARGET
queue Q DIRECT
list L DIRECT
  clear-rt RT 0
  draw rt RT
  draw ps-srv RT rt OUT
end
execute Q L
`}
	rows, err := bench.Run(context.Background(), bench.Config{Workloads: []*bench.Workload{w}, Profiles: []string{"discrete"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%-8s %6d cycles, %5d bytes decompressed, %d barrier calls, clean %v\n",
			r.Strategy, r.Cycles, r.DecompressedBytes, r.BarrierCalls, r.Clean())
	}
	// Output:
	// legacy   175356 cycles, 262144 bytes decompressed, 2 barrier calls, clean true
	// enhanced 156913 cycles,     0 bytes decompressed, 2 barrier calls, clean true
	// oracle   156862 cycles,     0 bytes decompressed, 0 barrier calls, clean true
	// best     154829 cycles,     0 bytes decompressed, 0 barrier calls, clean true
}
