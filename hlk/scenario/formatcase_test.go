package scenario_test

import (
	"strings"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/scenario"
)

const formatSrc = `scenario "a \"quoted\" title"
profiles discrete
debug
heap H default 1MiB
buffer B 4096 flags UNORDERED_ACCESS
texture T 64x64 mips 2 flags RENDER_TARGET layout RENDER_TARGET
texture P 64x64 flags RENDER_TARGET layout UNDEFINED at H 0
buffer U 256 in upload
write U 0 fill 0x5a 256
write U 0 5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a
queue Q DIRECT
list L DIRECT flags ALLOW_EXTENDED_ASYNC
  draw rt T ps-srv B[0+16]
  barrier texture T sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE subresources mips 0+1
  call
    buffer B sync ALL -> ALL access COMMON -> COMMON
    global sync 0x10000 -> ALL access COMMON -> COMMON
  end
  barrier-0088 ranged NULL sync COPY -> COPY access COPY_DEST -> COPY_DEST range 0+8 flags ATOMIC_COPY
  barriers
  copy-buffer B 0 U 0 16
end
reset L
  predication B 8 NOT_EQUAL_ZERO
end
execute Q L
expect bytes B[0+4] = 5a5a5a5a
expect bytes B[0+32] = 5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a
expect error 1334 in L field "a b" count 2 text "x\\y"
`

func parseOne(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	cases, err := scenario.Parse("f.ebs", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cases[0]
}

// A case prints as text that parses back to it, and Diff sees a member
// that differs.
func TestFormatRoundTripsAndDiffSees(t *testing.T) {
	c := parseOne(t, formatSrc)
	text, err := scenario.Format(c)
	if err != nil {
		t.Fatal(err)
	}
	if d := scenario.Diff(c, parseOne(t, text)); d != "" {
		t.Fatalf("%s\n%s", d, text)
	}
	other := parseOne(t, strings.Replace(formatSrc, "mips 0+1", "mips 0+2", 1))
	if d := scenario.Diff(c, other); !strings.Contains(d, "Mips") {
		t.Errorf("Diff of two cases whose subresources differ: %q", d)
	}
}

// What the language cannot write is an error naming it, never a text
// that parses to another case.
func TestFormatSaysWhatItCannotWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(sc *scenario.Scenario)
		want string
	}{
		{"a texture barrier's Subresources, which a line writes as Sub", func(sc *scenario.Scenario) {
			b := &sc.Steps[len(sc.Steps)-1].(*scenario.ListStep).Cmds[0].Barriers[0]
			b.Barrier.Texture().Subresources.NumPlanes = 3
		}, "members its line cannot write"},
		{"a barrier's resource handle", func(sc *scenario.Scenario) {
			b := &sc.Steps[len(sc.Steps)-1].(*scenario.ListStep).Cmds[0].Barriers[0]
			b.Barrier.Texture().Resource = 7
		}, "members its line cannot write"},
		{"a description member no option sets", func(sc *scenario.Scenario) {
			sc.Steps[0].(*scenario.ResourceStep).Desc.SampleDesc.Quality = 1
		}, "description has members no option sets"},
		{"a name that is not a word", func(sc *scenario.Scenario) {
			sc.Steps[0].(*scenario.ResourceStep).Name = "two words"
		}, "not a name"},
		{"a keyword as a name", func(sc *scenario.Scenario) {
			sc.Steps[0].(*scenario.ResourceStep).Name = "rt"
		}, "not a name"},
		{"a view with a range and a subresource", func(sc *scenario.Scenario) {
			v := &sc.Steps[len(sc.Steps)-1].(*scenario.ListStep).Cmds[1].Views["rt"][0]
			v.HasRange, v.HasSub = true, true
		}, "a byte range and a subresource"},
		{"a recording name the resets do not give", func(sc *scenario.Scenario) {
			sc.Steps[len(sc.Steps)-1].(*scenario.ListStep).Recording = "other"
		}, "recording"},
		{"a title with a newline", func(sc *scenario.Scenario) { sc.Title = "a\nb" }, "control character"},
		{"a legacy transition with both split flags", func(sc *scenario.Scenario) {
			sc.Steps[len(sc.Steps)-1].(*scenario.ListStep).Cmds = []scenario.Cmd{{Op: "resource-barrier", Legacy: []scenario.LegacySpec{{
				Res: "T", Barrier: func() legacy.Barrier {
					b := legacy.Transition(0, legacy.AllSubresources, ddi.StateCommon, ddi.StateRenderTarget)
					b.Flags = legacy.FlagBeginOnly | legacy.FlagEndOnly
					return b
				}()}}}}
		}, "members its form cannot write"},
		{"an expectation's member its kind does not write", func(sc *scenario.Scenario) {
			sc.Expects = append(sc.Expects, scenario.Expect{Kind: "no-hazard", N: 3})
		}, "members its kind does not write"},
		{"a ranged barrier that ends before it begins", func(sc *scenario.Scenario) {
			l := sc.Steps[len(sc.Steps)-1].(*scenario.ListStep)
			l.Cmds = append(l.Cmds, scenario.Cmd{Op: "barrier", Barriers: []scenario.BarrierSpec{{HasRes: true, Res: scenario.ViewRef{IsRaw: true},
				Barrier: ddi.NewRangedBarrier(ddi.RangedBarrier{Range: ddi.Range{Begin: 8, End: 4}})}}})
		}, "ends (4) before it begins (8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := parseOne(t, "texture T 64x64 flags RENDER_TARGET layout RENDER_TARGET\nlist L DIRECT\n"+
				"  barrier texture T sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE\n"+
				"  draw rt T\nend\n")
			if _, err := scenario.Format(sc); err != nil {
				t.Fatalf("before the edit: %v", err)
			}
			tc.edit(sc)
			text, err := scenario.Format(sc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q; text:\n%s", err, tc.want, text)
			}
		})
	}
}
