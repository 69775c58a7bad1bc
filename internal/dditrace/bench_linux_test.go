//go:build linux && amd64

package dditrace

import (
	"os"
	"runtime"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/link"
	"github.com/stretchr/testify/require"
)

// BenchmarkProbedCall times one call of an empty function: bare, with an
// entry and a return probe running an empty BPF program (the kernel's
// trap alone), and with the tracer's own programs. The difference between
// the last two is what ebref's programs add to the trap.
func BenchmarkProbedCall(b *testing.B) {
	needBPF(b)
	self, err := os.Executable()
	require.NoError(b, err)
	eps := []EntryPoint{{Name: "calibration", Symbol: calibrationSymbol}}
	bin, err := ReadBinary(self, eps)
	require.NoError(b, err)
	fn := bin.Functions[calibrationSymbol]
	loop := func(b *testing.B) {
		x := uint64(0)
		for b.Loop() {
			x = calibrationTarget(x)
		}
		runtime.KeepAlive(x)
	}
	b.Run("bare", loop)
	b.Run("empty-programs", func(b *testing.B) {
		prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Type: ebpf.Kprobe, License: "Dual MIT/GPL",
			Instructions: asm.Instructions{asm.Mov.Imm(asm.R0, 0), asm.Return()}})
		require.NoError(b, err)
		defer prog.Close()
		ex, err := link.OpenExecutable(self)
		require.NoError(b, err)
		for _, off := range append([]uint64{0}, fn.Returns...) {
			l, err := ex.Uprobe(calibrationSymbol, prog, &link.UprobeOptions{Address: fn.FileOffset, Offset: off})
			require.NoError(b, err)
			defer l.Close()
		}
		loop(b)
	})
	b.Run("ebref-programs", func(b *testing.B) {
		dev, ino, err := currentPidns()
		require.NoError(b, err)
		p, err := newPrograms(programConfig{tgid: uint32(os.Getpid()), pidnsDev: dev, pidnsIno: ino, goidOffset: -1,
			stackHiOffset: bin.StackHiOffset, entries: 1, ringBytes: os.Getpagesize()})
		require.NoError(b, err)
		defer p.close()
		entry, ret, err := attachProbes(p, bin, eps)
		for _, l := range append(entry, ret...) {
			defer l.Close()
		}
		require.NoError(b, err)
		loop(b)
	})
}
