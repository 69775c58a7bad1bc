package bench

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// A split site is a barrier that independent work separates from the
// last command that touches its resource in the same list; the split
// writes the begin right after that command and keeps the end in place,
// with nothing between the halves that names the resource.
func TestSplitSites(t *testing.T) {
	src := `
texture A 64x64 flags UNORDERED_ACCESS|SHADER_RESOURCE layout UNORDERED_ACCESS
texture B 64x64 flags UNORDERED_ACCESS|SHADER_RESOURCE layout UNORDERED_ACCESS
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
queue Q DIRECT
list L DIRECT
  dispatch uav A
  dispatch uav B
  call
    texture B sync COMPUTE_SHADING -> PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE
    texture A sync COMPUTE_SHADING -> PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE
  end
  draw ps-srv A B rt OUT
end
execute Q L
expect reference
`
	sc := parseOne(t, src)
	before := formatted(t, sc)
	sites := splitSites(sc)
	// B's last use is right before the call: nothing to overlap. A's
	// barrier (the call's second, the list's third command) ends where
	// it was and begins before the list's second command.
	if len(sites) != 1 || sites[0].res != "A" || sites[0].list != 4 || sites[0].cmd != 2 || sites[0].barrier != 1 ||
		sites[0].beginList != 4 || sites[0].beginAt != 1 || sites[0].cross {
		t.Fatalf("sites: %+v", sites)
	}
	out := formatted(t, withSplits(sc, sites))
	want := "  dispatch uav A\n  barrier texture A sync COMPUTE_SHADING -> SPLIT access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE\n  dispatch uav B\n"
	if !strings.Contains(out, want) {
		t.Errorf("no begin after A's last use:\n%s", out)
	}
	if !strings.Contains(out, "    texture B sync COMPUTE_SHADING -> PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE\n"+
		"    texture A sync SPLIT -> PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE\n") {
		t.Errorf("no end in the barrier's place:\n%s", out)
	}
	if got := formatted(t, sc); got != before {
		t.Errorf("withSplits changed the scenario it was given:\n%s", got)
	}
	cases, err := scenario.Parse("split.ebs", out, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range hwmodel.ProfileNames() {
		prof, _ := hwmodel.LookupProfile(p)
		w := &Workload{Name: "split"}
		if row, _ := run(context.Background(), w, cases[0], prof, Enhanced, nil); !row.Clean() {
			t.Errorf("%s: the split form is not clean: %v", p, row.Failures)
		}
	}
	// A placed resource, a barrier from an earlier submission (NONE) or
	// one that ends the accesses (NONE after) is no site.
	for _, b := range []string{
		"texture A sync NONE -> PIXEL_SHADING access NO_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE",
		"texture A sync COMPUTE_SHADING -> NONE access UNORDERED_ACCESS -> NO_ACCESS layout UNORDERED_ACCESS -> UNORDERED_ACCESS",
	} {
		s := strings.Replace(src, "texture A sync COMPUTE_SHADING -> PIXEL_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE layout UNORDERED_ACCESS -> DIRECT_QUEUE_SHADER_RESOURCE", b, 1)
		if sites := splitSites(parseOne(t, s)); len(sites) != 0 {
			t.Errorf("%s: sites %+v", b, sites)
		}
	}
}

// parseOne is a scenario text's one case.
func parseOne(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	cases, err := scenario.Parse("split.ebs", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 {
		t.Fatalf("%d cases", len(cases))
	}
	return cases[0]
}

// formatted is a scenario printed.
func formatted(t *testing.T, sc *scenario.Scenario) string {
	t.Helper()
	text, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// The expert splits where the machine finds it cheaper: the shadow
// cascades' depth buffers, each sampled after the later cascades are
// drawn, change layout beside those draws; the split form is clean and
// cheaper than the single barriers on every profile that compresses depth.
func TestExpertSplits(t *testing.T) {
	w := Workloads[slices.IndexFunc(Workloads, func(w *Workload) bool { return w.Name == "shadow-cascades" })]
	sc, err := Scenario(w, Enhanced)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"discrete", "unified3d"} {
		prof, _ := hwmodel.LookupProfile(p)
		single, _ := run(context.Background(), w, sc, prof, Enhanced, nil)
		row, _, _, src, err := runExpert(context.Background(), w, prof)
		if err != nil {
			t.Fatal(err)
		}
		if !row.Clean() || len(row.SplitBarriers) == 0 || row.Cycles >= single.Cycles || !strings.Contains(src, "-> SPLIT") {
			t.Errorf("%s: expert %d cycles, splits %v, clean %v; single barriers %d", p, row.Cycles, row.SplitBarriers, row.Clean(), single.Cycles)
		}
	}
}

// The search starts from the expert's program too: best is never above
// the expert's clean row, in any cell.
func TestBestAtMostExpert(t *testing.T) {
	cost := map[string]Row{}
	for _, r := range rows(t) {
		cost[r.Workload+"/"+r.Profile+"/"+string(r.Strategy)] = r
	}
	for _, w := range All() {
		for _, p := range hwmodel.ProfileNames() {
			e, b := cost[w.Name+"/"+p+"/enhanced"], cost[w.Name+"/"+p+"/best"]
			if e.Clean() && b.Cycles > e.Cycles {
				t.Errorf("%s on %s: best %d cycles (edits %s), above the expert's %d (splits %v)", w.Name, p, b.Cycles, b.Edits, e.Cycles, e.SplitBarriers)
			}
		}
	}
}
