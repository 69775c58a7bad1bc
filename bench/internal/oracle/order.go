package oracle

import "github.com/ebref/ebref/cmdbuf"

const numStages = int(cmdbuf.NumStages)

// clock says, per stage, the last op of that stage something is ordered
// after (ops are numbered in issue order from 1).
type clock [numStages]uint64

func (c *clock) merge(o *clock) {
	for i := range c {
		c[i] = max(c[i], o[i])
	}
}

// order follows one engine's ordering through a submission the way the
// machine does (hardware.md "Ordering", "Waits"): what each stage's next op
// is ordered after, how a WAIT's drain is transitive through earlier holds,
// and how a synchronous CP op orders everything after it.
type order struct {
	seq      uint64
	last     [numStages]uint64 // the last op issued in each stage
	lastF    [numStages]clock  // and what it was ordered after
	floor    clock             // what every stage's next op is ordered after
	frontier [numStages]clock  // and, per stage, what else
}

// op is an op the oracle has seen issued.
type op struct {
	seq    uint64
	stage  cmdbuf.Stage
	client cmdbuf.Client
	// decodes: the access read or wrote the bytes through compression,
	// so it used their metadata
	decodes bool
}

// front is what the next op in stage s is ordered after.
func (o *order) front(s cmdbuf.Stage) clock {
	c := o.floor
	c.merge(&o.frontier[s])
	return c
}

// issue numbers the next op, in stage s.
func (o *order) issue(s cmdbuf.Stage) uint64 {
	o.seq++
	f := o.front(s)
	o.last[s], o.lastF[s] = o.seq, f
	if s == cmdbuf.StageCP {
		o.floor = f
		o.floor[cmdbuf.StageCP] = o.seq
	}
	return o.seq
}

// drained is what completing everything issued so far in the drain
// stages implies: a stage held by an earlier wait has not drained until
// what that wait waited for has.
func (o *order) drained(drain cmdbuf.StageMask) clock {
	var c clock
	for s := range numStages {
		if drain.Has(cmdbuf.Stage(s)) {
			c.merge(&o.lastF[s])
			c.merge(&o.frontier[s])
			c[s] = max(c[s], o.last[s])
		}
	}
	return c
}

// least returns the fewest stages whose drain completes every op in ops:
// their own stages, less each one that draining the others covers
// already (draining a stage a wait held covers what it waited for).
func (o *order) least(ops []op) cmdbuf.StageMask {
	var drain cmdbuf.StageMask
	for _, w := range ops {
		drain |= w.stage.Mask()
	}
	covers := func(d cmdbuf.StageMask) bool {
		c := o.drained(d)
		for _, w := range ops {
			if w.seq > c[w.stage] {
				return false
			}
		}
		return true
	}
	for s := range cmdbuf.NumStages {
		if drain.Has(s) && covers(drain&^s.Mask()) {
			drain &^= s.Mask()
		}
	}
	return drain
}

// wait is a WAIT packet.
func (o *order) wait(drain, hold cmdbuf.StageMask) {
	c := o.drained(drain)
	if hold.Has(cmdbuf.StageCP) {
		o.floor.merge(&c)
		return
	}
	for s := range numStages {
		if hold.Has(cmdbuf.Stage(s)) {
			o.frontier[s].merge(&c)
		}
	}
}

// ordered reports whether w is complete before an op issued now in stage s
// through client c starts: by the stage's frontier, or because successive
// render-target writes through the colour back end (depth writes through
// the depth back end) retire in order.
func (o *order) ordered(w op, s cmdbuf.Stage, c cmdbuf.Client) bool {
	f := o.front(s)
	if w.seq <= f[w.stage] {
		return true
	}
	return w.stage == s && w.client == c &&
		(c == cmdbuf.ClientColor && s == cmdbuf.StageColor || c == cmdbuf.ClientDepth && s == cmdbuf.StageDepth)
}
