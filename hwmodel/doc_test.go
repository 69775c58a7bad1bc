package hwmodel

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated tables in docs/hardware.md")

const hardwareDoc = "../docs/hardware.md"

// profileTables renders the profiles as the markdown docs/hardware.md
// carries between its profile-table markers.
func profileTables() string {
	var b strings.Builder
	b.WriteString("| profile | caches (→ parent) | compressed textures | costs that differ |\n|---|---|---|---|\n")
	for _, p := range Profiles() {
		var cs []string
		for _, s := range p.Caches {
			parent := "memory"
			if s.Parent != Memory {
				parent = s.Parent.String()
			}
			kind := "per engine"
			if s.Shared {
				kind = "shared"
			}
			ro := ""
			if s.ReadOnly {
				ro = ", read-only"
			}
			cs = append(cs, fmt.Sprintf("%s (→ %s, %s%s)", s.Kind, parent, kind, ro))
		}
		var comp []string
		if p.Compresses.RenderTarget {
			comp = append(comp, "render target")
		}
		if p.Compresses.DepthStencil {
			comp = append(comp, "depth-stencil")
		}
		if p.Compresses.UnorderedAccess {
			comp = append(comp, "unordered access")
		}
		if comp == nil {
			comp = []string{"none"}
		}
		var costs []string
		if p.Costs != defaultCosts {
			if p.Costs.FlushPerLine != defaultCosts.FlushPerLine {
				costs = append(costs, fmt.Sprintf("flush %d/line", p.Costs.FlushPerLine))
			}
			if p.Costs.DecompressPerKB != defaultCosts.DecompressPerKB {
				costs = append(costs, fmt.Sprintf("decompress %d/KiB", p.Costs.DecompressPerKB))
			}
		}
		if costs == nil {
			costs = []string{"—"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, strings.Join(cs, "; "), strings.Join(comp, ", "), strings.Join(costs, ", "))
	}
	for _, p := range Profiles() {
		fmt.Fprintf(&b, "\n**`%s`** — %s. Each cell is the client's path to memory on that engine; `(c)` marks a client that decodes compression there.\n\n", p.Name, p.Description)
		b.WriteString("| client |")
		for e := EngineKind(0); e < NumEngineKinds; e++ {
			fmt.Fprintf(&b, " %s |", e)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", int(NumEngineKinds)) + "\n")
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			fmt.Fprintf(&b, "| %s |", c)
			for e := EngineKind(0); e < NumEngineKinds; e++ {
				var hops []string
				for _, k := range p.Path(e, c) {
					hops = append(hops, k.String())
				}
				cell := strings.Join(append(hops, "memory"), " → ")
				if p.Aware[e][c] {
					cell += " (c)"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func costTable() string {
	c := defaultCosts
	rows := []struct {
		what string
		v    uint64
	}{
		{"every packet (parsing, on the command processor)", c.Packet},
		{"WAIT, EVENT_WAIT, FENCE_WAIT, on top of the idle cycles they cause", c.WaitBase},
		{"CACHE, on top of per-line costs", c.CacheOpBase},
		{"per dirty line written back by a flush", c.FlushPerLine},
		{"per line dropped by an invalidate", c.InvalPerLine},
		{"per KiB of surface decompressed", c.DecompressPerKB},
		{"per byte of metadata initialised", c.MetadataPerByte},
		{"end of submission, on top of its drain, flushes and invalidates", c.BatchEndBase},
	}
	var b strings.Builder
	b.WriteString("| cost (default; profiles may differ, see above) | cycles |\n|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d |\n", r.what, r.v)
	}
	return b.String()
}

// TestHardwareDocIsCurrent: the tables in docs/hardware.md are the
// profiles' and the cost model's data (go test ./hwmodel -update rewrites
// them).
func TestHardwareDocIsCurrent(t *testing.T) {
	require.NoError(t, docgen.Check(hardwareDoc, "go test ./hwmodel -update",
		[]docgen.Section{{Name: "profiles", Body: profileTables()}, {Name: "costs", Body: costTable()}}, *updateDocs))
}
