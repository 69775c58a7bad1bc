package bench

import (
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
)

// A use is how one work command touches one of its views: the legacy state
// that use needs and the enhanced barrier members (sync, access, layout)
// that stand for it, spelled as the scenario language writes them, from
// the one table of what commands do to views (scenario.Uses). The table is
// by command and role, the role being the language's (docs/scenarios.md
// "Work"): a keyword such as "rt", or a position ("0", "2") for positional
// views.
type use struct {
	state  string // D3D12_RESOURCE_STATES, without the prefix
	sync   string // D3D12_BARRIER_SYNC
	access string // D3D12_BARRIER_ACCESS
	// layout is the texture layout on a direct list ("" for a buffer-only
	// use); compute lists use the COMPUTE_QUEUE_ form (layoutFor).
	layout string
	flags  scenario.UseFlags
	of     scenario.Use // the table's row, for its layouts on other queues
}

func (u use) writes() bool { return u.flags&scenario.UseWrite != 0 }

// compiledCommands are the work commands bench's compiler writes barriers
// around; a workload using another is an error (compile).
var compiledCommands = []string{"draw", "dispatch", "clear-rt", "clear-ds", "clear-uav", "copy-buffer", "copy-texture",
	"copy-buffer-to-texture", "copy-texture-to-buffer", "resolve"}

// uses gives each compiled command's roles their use (scenario.Uses).
var uses = func() map[string]map[string]use {
	out := map[string]map[string]use{}
	for _, cmd := range compiledCommands {
		out[cmd] = map[string]use{}
		for role, u := range scenario.Uses[cmd] {
			layout := ""
			if u.Layout != ddi.LayoutUndefined {
				layout = u.Layout.String()
			}
			out[cmd][role] = use{state: u.State.String(), sync: u.Sync.String(), access: u.Access.String(), layout: layout, flags: u.Flags, of: u}
		}
	}
	return out
}()

// copyDst is a copy's destination: copies into one subresource in one
// list may need no barrier between them (besideCopies).
var copyDst = uses["copy-buffer"]["0"]

// layoutFor is the layout a use takes on a list of the given type: the
// DIRECT_QUEUE_ layouts become COMPUTE_QUEUE_ ones on compute lists
// (scenario.Use.LayoutOn: the layouts a queue type may use, 000 "Barrier Layouts"); with generic,
// the layout without its queue prefix: a texture that more than one type of queue uses takes the
// layouts they all may (000 "Barrier Layouts": the generic layouts are
// the direct and compute queues' alike).
func (u use) layoutFor(listType string, generic bool) string {
	switch {
	case u.layout == "":
		return ""
	case generic:
		return u.of.Generic().String()
	case listType == "COMPUTE":
		if l, ok := u.of.LayoutOn(ddi.CommandListTypeCompute); ok {
			return l.String()
		}
	}
	return u.layout
}
