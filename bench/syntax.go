package bench

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/scenario"
)

// The compiler builds its frames as syntax trees (package hlk/scenario)
// and prints them with scenario.Format: a barrier is a
// scenario.BarrierSpec or, in the legacy form, a scenario.LegacySpec, a
// call a scenario.Cmd.
//
// The members are the names of the use table (uses.go, each a typed
// value's String from scenario.Uses) and the compiler's joins of them
// ("A|B"), parsed back here; one that does not parse is bench's own
// mistake, not the frame's, and panics with what it was.

// barrier is one barrier of a call the compiler writes: enhanced, or a
// ResourceBarrier form (legacy).
type barrier struct {
	spec   scenario.BarrierSpec
	form   scenario.LegacySpec
	legacy bool
}

// discards reports whether an enhanced barrier is a texture's with DISCARD.
func (b barrier) discards() bool {
	return !b.legacy && b.spec.Barrier.Type == ddi.BarrierTypeTexture &&
		b.spec.Barrier.Texture().Flags&ddi.TextureBarrierFlagDiscard != 0
}

func must[T any](what, s string, parse func(string) (T, error)) T {
	v, err := parse(s)
	if err != nil {
		panic(fmt.Sprintf("bench: the compiler wrote %s %q: %v", what, s, err))
	}
	return v
}

func syncOf(s string) ddi.BarrierSync      { return must("a sync", s, ddi.ParseBarrierSync) }
func accessOf(s string) ddi.BarrierAccess  { return must("an access", s, ddi.ParseBarrierAccess) }
func layoutOf(s string) ddi.BarrierLayout  { return must("a layout", s, ddi.ParseBarrierLayout) }
func statesOf(s string) ddi.ResourceStates { return must("a legacy state", s, ddi.ParseResourceStates) }
func named(name string) scenario.ViewRef   { return scenario.ViewRef{Res: name} }
func allSubresources() ddi.SubresourceRange {
	return ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
}

// bufferBarrierOf is `buffer NAME sync SB -> SA access AB -> AA`.
func bufferBarrierOf(name, syncBefore, syncAfter, accessBefore, accessAfter string) barrier {
	return barrier{spec: scenario.BarrierSpec{Barrier: ddi.NewBufferBarrier(ddi.BufferBarrier{
		SyncBefore: syncOf(syncBefore), SyncAfter: syncOf(syncAfter), AccessBefore: accessOf(accessBefore), AccessAfter: accessOf(accessAfter)}),
		Res: named(name), HasRes: true}}
}

// textureBarrierOf is `texture NAME sync SB -> SA access AB -> AA layout
// LB -> LA`, with `subresources SUB` when sub is not -1 and `flags
// DISCARD` when discard.
func textureBarrierOf(name, syncBefore, syncAfter, accessBefore, accessAfter, layoutBefore, layoutAfter string, sub int, discard bool) barrier {
	t := ddi.TextureBarrier{SyncBefore: syncOf(syncBefore), SyncAfter: syncOf(syncAfter), AccessBefore: accessOf(accessBefore),
		AccessAfter: accessOf(accessAfter), LayoutBefore: layoutOf(layoutBefore), LayoutAfter: layoutOf(layoutAfter), Subresources: allSubresources()}
	if discard {
		t.Flags = ddi.TextureBarrierFlagDiscard
	}
	b := barrier{spec: scenario.BarrierSpec{Barrier: ddi.NewTextureBarrier(t), Res: named(name), HasRes: true}}
	if sub >= 0 {
		b.spec.Sub = &scenario.SubSpec{Index: uint32(sub), IsIndex: true}
	}
	return b
}

// transitionOf is `transition NAME BEFORE -> AFTER`, with `subresource
// SUB` when sub is not -1.
func transitionOf(name, before, after string, sub int) barrier {
	s := uint32(legacy.AllSubresources)
	if sub >= 0 {
		s = uint32(sub)
	}
	return barrier{form: scenario.LegacySpec{Barrier: legacy.Transition(0, s, statesOf(before), statesOf(after)), Res: name}, legacy: true}
}

// uavOf is `uav NAME`.
func uavOf(name string) barrier {
	return barrier{form: scenario.LegacySpec{Barrier: legacy.UAV(0), Res: name}, legacy: true}
}

// aliasingOf is `aliasing BEFORE AFTER`.
func aliasingOf(before, after string) barrier {
	return barrier{form: scenario.LegacySpec{Barrier: legacy.Aliasing(0, 0), Before: before, After: after}, legacy: true}
}

// callOf is one call of barriers: a Barrier call, or a ResourceBarrier
// call of the legacy forms.
func callOf(bs []barrier) scenario.Cmd {
	if len(bs) > 0 && bs[0].legacy {
		c := scenario.Cmd{Op: "resource-barrier"}
		for _, b := range bs {
			c.Legacy = append(c.Legacy, b.form)
		}
		return c
	}
	c := scenario.Cmd{Op: "barrier"}
	for _, b := range bs {
		c.Barriers = append(c.Barriers, b.spec)
	}
	return c
}
