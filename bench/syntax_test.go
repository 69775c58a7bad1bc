package bench

import (
	"fmt"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
)

// Every workload's scenario in every strategy it has — compiled, or a
// sample's own form — prints with scenario.Format as a text that parses
// back to it; a compiled one is that text already (the compiler builds a
// syntax tree and prints it).
func TestEmittedScenariosRoundTrip(t *testing.T) {
	for _, w := range All() {
		for _, s := range []Strategy{Legacy, Enhanced, AppLegacy, AppEnhanced} {
			if !w.Has(s) {
				continue
			}
			src, err := Source(w, s)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s.%s.ebs", w.Name, s)
			cases, err := scenario.Parse(name, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			text, err := scenario.Format(cases[0])
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			back, err := scenario.Parse(name, text, nil)
			if err != nil {
				t.Errorf("%s: the formatted text does not parse: %v", name, err)
				continue
			}
			if d := scenario.Diff(cases[0], back[0]); d != "" {
				t.Errorf("%s: parsed back, it differs: %s", name, d)
			}
			if !s.app() && text != src {
				t.Errorf("%s: the compiled text is not the formatter's:\n%s\nformatted:\n%s", name, src, text)
			}
		}
	}
}

// The compiler's barriers and calls are syntax-tree values that print as
// the language writes them; a member that does not parse is bench's own
// mistake (its table's names), and panics saying so.
func TestCompiledCallsAreSyntaxTrees(t *testing.T) {
	b := textureBarrierOf("T", "PIXEL_SHADING|RENDER_TARGET", "NONE", "SHADER_RESOURCE", "NO_ACCESS", "UNDEFINED", "RENDER_TARGET", 2, true)
	if !b.discards() || b.spec.Sub == nil || !b.spec.Sub.IsIndex || b.spec.Sub.Index != 2 {
		t.Errorf("textureBarrierOf: %+v", b.spec)
	}
	c := callOf([]barrier{b, bufferBarrierOf("B", "COPY", "NONE", "COPY_DEST", "NO_ACCESS")})
	sc := &scenario.Scenario{Steps: []scenario.Step{
		&scenario.ListStep{Name: "L", Recording: "L", Cmds: []scenario.Cmd{c, callOf([]barrier{transitionOf("T", "COMMON", "RENDER_TARGET", -1), uavOf("B"), aliasingOf("T", "")})}},
	}}
	text, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := "list L DIRECT\n  call\n" +
		"    texture T sync PIXEL_SHADING|RENDER_TARGET -> NONE access SHADER_RESOURCE -> NO_ACCESS layout UNDEFINED -> RENDER_TARGET subresources 2 flags DISCARD\n" +
		"    buffer B sync COPY -> NONE access COPY_DEST -> NO_ACCESS\n  end\n" +
		"  resource-barriers\n    transition T COMMON -> RENDER_TARGET\n    uav B\n    aliasing T NULL\n  end\nend\n"
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a member that does not parse is bench's mistake, and panics")
		}
	}()
	syncOf("NOT_A_SYNC")
}

// BenchmarkCompileAll compiles every workload in the legacy and enhanced
// forms: the parse, the walk, the tree built and printed.
func BenchmarkCompileAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range All() {
			for _, s := range []Strategy{Legacy, Enhanced} {
				if _, err := compile(w, s); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
