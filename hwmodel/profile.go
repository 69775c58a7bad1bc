package hwmodel

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ebref/ebref/cmdbuf"
)

// EngineKind is the kind of a hardware engine (a queue's engine).
type EngineKind uint8

// The engine kinds.
const (
	EngineDirect       EngineKind = iota // graphics, compute and copy work
	EngineCompute                        // compute and copy work
	EngineCopy                           // copy work
	EngineVideoDecode                    // video decode
	EngineVideoProcess                   // video processing
	EngineVideoEncode                    // video encode
	NumEngineKinds
)

var engineKindNames = [NumEngineKinds]string{"DIRECT", "COMPUTE", "COPY", "VIDEO_DECODE", "VIDEO_PROCESS", "VIDEO_ENCODE"}

func (k EngineKind) String() string {
	if k < NumEngineKinds {
		return engineKindNames[k]
	}
	return fmt.Sprintf("ENGINE_%d", uint8(k))
}

// ParseEngineKind accepts what String prints.
func ParseEngineKind(s string) (EngineKind, error) {
	for i, n := range engineKindNames {
		if n == s {
			return EngineKind(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not an engine kind", s)
}

// Stages lists the stages an engine kind has; work in another stage faults.
func (k EngineKind) Stages() cmdbuf.StageMask {
	always := cmdbuf.StageCP.Mask() | cmdbuf.StageBlit.Mask()
	switch k {
	case EngineDirect:
		return cmdbuf.AllStages &^ cmdbuf.StageVideo.Mask()
	case EngineCompute:
		return always | cmdbuf.StageCompute.Mask() | cmdbuf.StageRaytrace.Mask() | cmdbuf.StageASBuild.Mask() |
			cmdbuf.StageCopy.Mask() | cmdbuf.StageClear.Mask()
	case EngineCopy:
		return always | cmdbuf.StageCopy.Mask()
	}
	return always | cmdbuf.StageVideo.Mask()
}

// Memory is where a route ends when it names no cache.
const Memory cmdbuf.Cache = 0xff

// CacheSpec describes one cache kind a profile has.
type CacheSpec struct {
	Kind cmdbuf.Cache
	// Shared: one instance serves every engine routed to it; otherwise each
	// engine has its own.
	Shared bool
	// Parent is where flushes and misses go: another cache kind, or Memory.
	Parent cmdbuf.Cache
	// ReadOnly caches never hold writes; a route must not send writes there.
	ReadOnly bool
}

// Costs is a profile's cost model, in cycles.
type Costs struct {
	Packet          uint64 // every packet, for the command processor to parse it
	WaitBase        uint64 // a WAIT or EVENT_WAIT, on top of the idle time it causes
	CacheOpBase     uint64 // a CACHE packet, on top of per-line costs
	FlushPerLine    uint64 // per dirty line written back
	InvalPerLine    uint64 // per line dropped
	DecompressPerKB uint64 // per KiB of surface decompressed
	MetadataPerByte uint64 // per byte of metadata initialised
	BatchEndBase    uint64 // the end-of-submission drain, on top of its flushes
}

// Profile is a hardware profile: which caches exist, which clients of which
// engine go through which cache, which clients decode compression on which
// engine, and what things cost. The driver reads the same facts to decide
// its translation; the model enforces them.
type Profile struct {
	Name        string
	Description string
	// Sources are the public documents the profile's facts follow, if
	// any (a profile file's "sources").
	Sources []string
	Caches  []CacheSpec
	// Route gives each engine kind's clients their first cache (or Memory).
	Route [NumEngineKinds][cmdbuf.NumClients]cmdbuf.Cache
	// Aware says which clients decode compressed surfaces on each engine.
	Aware [NumEngineKinds][cmdbuf.NumClients]bool
	// Compresses says which kinds of texture the GPU keeps compressed when a
	// layout allows it: render targets, depth-stencil, unordered access.
	Compresses struct{ RenderTarget, DepthStencil, UnorderedAccess bool }
	Costs      Costs
}

// Spec returns the spec of a cache kind, false if the profile lacks it.
func (p *Profile) Spec(c cmdbuf.Cache) (CacheSpec, bool) {
	for _, s := range p.Caches {
		if s.Kind == c {
			return s, true
		}
	}
	return CacheSpec{}, false
}

// Has reports whether the profile has a cache kind.
func (p *Profile) Has(c cmdbuf.Cache) bool { _, ok := p.Spec(c); return ok }

// Path returns the caches an engine's client goes through, nearest first,
// ending before memory.
func (p *Profile) Path(e EngineKind, c cmdbuf.Client) []cmdbuf.Cache {
	var out []cmdbuf.Cache
	for k := p.Route[e][c]; k != Memory && len(out) < int(cmdbuf.NumCaches); {
		out = append(out, k)
		s, _ := p.Spec(k)
		k = s.Parent
	}
	return out
}

// CachesBetween returns the caches a write by writer (engine, client) sits
// in before a reader (engine, client) can see it: the writer's path up to,
// not including, the first cache the two paths share (or memory). Flushing
// these, nearest first, makes the write visible; invalidating the reader's
// caches above the shared one drops stale copies (see StaleBetween).
func (p *Profile) CachesBetween(we EngineKind, wc cmdbuf.Client, re EngineKind, rc cmdbuf.Client) []cmdbuf.Cache {
	return p.untilShared(p.Path(we, wc), p.Path(re, rc), we, re)
}

// StaleBetween returns the reader's caches above the first cache it shares
// with the writer: the ones that may hold stale copies of what the writer
// wrote.
func (p *Profile) StaleBetween(we EngineKind, wc cmdbuf.Client, re EngineKind, rc cmdbuf.Client) []cmdbuf.Cache {
	return p.untilShared(p.Path(re, rc), p.Path(we, wc), we, re)
}

// untilShared returns path up to, not including, the first cache it shares
// with other (the same instance, engines we and re).
func (p *Profile) untilShared(path, other []cmdbuf.Cache, we, re EngineKind) []cmdbuf.Cache {
	var out []cmdbuf.Cache
	for _, c := range path {
		if shared(p, c, we, re) && slices.Contains(other, c) {
			break
		}
		out = append(out, c)
	}
	return out
}

// shared reports whether engines a and b use the same instance of c.
func shared(p *Profile, c cmdbuf.Cache, a, b EngineKind) bool {
	s, _ := p.Spec(c)
	return s.Shared || a == b
}

// Validate checks that a profile can be a GPU, returning a *RuleError
// that names the rule and the profile file's key it concerns:
//   - each cache kind is listed once, and its parent is memory or a cache
//     the profile has, never itself, and parents never loop (a write-back
//     must reach memory);
//   - a cache that holds writes does not write them back into a read-only
//     one;
//   - every route names memory or a cache the profile has, and no client
//     that writes routes into a read-only cache;
//   - an engine whose clients decode compression has a BLIT client that
//     decodes it too: the BLIT client is how an engine reaches a surface's
//     metadata (DECOMPRESS, METADATA_INIT), so an engine that cannot reach
//     it could make compressed blocks it could never make plain;
//   - a profile that compresses textures has an engine that can reach the
//     metadata.
func (p *Profile) Validate() error {
	rule := func(key, format string, args ...any) error {
		return &RuleError{Profile: p.Name, Key: key, Rule: fmt.Sprintf(format, args...)}
	}
	index := map[cmdbuf.Cache]int{}
	for i, s := range p.Caches {
		key := fmt.Sprintf("caches[%d]", i)
		if s.Kind >= cmdbuf.NumCaches {
			return rule(key+".kind", "cache kind %d does not exist", s.Kind)
		}
		if j, dup := index[s.Kind]; dup {
			return rule(key+".kind", "%s is listed twice (caches[%d] too): an engine has one cache of each kind", s.Kind, j)
		}
		index[s.Kind] = i
	}
	for i, s := range p.Caches {
		key := fmt.Sprintf("caches[%d].parent", i)
		if s.Parent == s.Kind {
			return rule(key, "%s is its own parent: its write-backs never reach memory", s.Kind)
		}
		chain, seen := []string{s.Kind.String()}, map[cmdbuf.Cache]bool{s.Kind: true}
		for k := s.Parent; k != Memory; {
			ks, ok := p.Spec(k)
			if !ok {
				return rule(key, "%s has parent %s, which the profile lacks", chain[len(chain)-1], k)
			}
			chain = append(chain, k.String())
			if seen[k] {
				return rule(key, "the parents loop (%s): %s's write-backs never reach memory", strings.Join(chain, " → "), s.Kind)
			}
			seen[k] = true
			k = ks.Parent
		}
		if ps, ok := p.Spec(s.Parent); ok && ps.ReadOnly && !s.ReadOnly {
			return rule(key, "%s holds writes and writes them back into %s, which is read-only", s.Kind, s.Parent)
		}
	}
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			k := p.Route[e][c]
			if k == Memory {
				continue
			}
			key := fmt.Sprintf("routes.%s.%s", e, c)
			s, ok := p.Spec(k)
			if !ok {
				return rule(key, "%s %s routes to %s, which the profile lacks: it has no path to memory", e, c, k)
			}
			if s.ReadOnly && writes(c) {
				return rule(key, "%s %s writes into read-only %s", e, c, k)
			}
		}
	}
	reach := false
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		reach = reach || p.Aware[e][cmdbuf.ClientBlit]
		if p.Aware[e][cmdbuf.ClientBlit] {
			continue
		}
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			if p.Aware[e][c] {
				return rule("decodes_compression."+e.String(), "%s decodes compression on %s but BLIT does not: "+
					"%s cannot reach the metadata to decompress or initialise what its clients compress", c, e, e)
			}
		}
	}
	if c := p.Compresses; (c.RenderTarget || c.DepthStencil || c.UnorderedAccess) && !reach {
		return rule("compresses", "the profile compresses textures but no engine's BLIT decodes compression: nothing can reach the metadata")
	}
	return nil
}

// writes reports whether a client ever writes.
func writes(c cmdbuf.Client) bool {
	switch c {
	case cmdbuf.ClientCP, cmdbuf.ClientVertexFetch, cmdbuf.ClientConstFetch, cmdbuf.ClientShaderLoad, cmdbuf.ClientRTTraverse:
		return false
	}
	return true
}

// profiles are ebref's built-in hardware profiles, in their documented
// order: the embedded files profiles/*.json (docs/hardware.md has the
// table). The first three are illustrative, chosen so the best translation
// of the same barrier differs between them; the others follow public
// descriptions of GPU families.
var profiles = loadBuiltins()

// Profiles returns the built-in profiles, in their documented order.
func Profiles() []*Profile { return append([]*Profile(nil), profiles...) }

// ProfileNames lists the built-in profiles' names, sorted.
func ProfileNames() []string {
	var out []string
	for _, p := range profiles {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

// LookupProfile finds a profile by name: a built-in one, or one a file
// gave (AddProfile).
func LookupProfile(name string) (*Profile, error) {
	for _, p := range profiles {
		if p.Name == name {
			return p, nil
		}
	}
	added.Lock()
	defer added.Unlock()
	for _, f := range added.list {
		if f.p.Name == name {
			return f.p, nil
		}
	}
	return nil, fmt.Errorf("no hardware profile %q (have %v)", name, ProfileNames())
}

// added holds the profiles files gave, for the rest of the process.
var added struct {
	sync.Mutex
	list []fileProfile
}

type fileProfile struct {
	p      *Profile
	digest string
}

// AddProfile makes a profile read from a file (ReadProfileFile) one that
// LookupProfile finds, under its name, for the rest of the process. It
// refuses a built-in profile's name, and a name an earlier file gave with
// other content (digest); the same file again is no error, and gives the
// profile added first.
func AddProfile(p *Profile, digest string) (*Profile, error) {
	for _, b := range profiles {
		if b.Name == p.Name {
			return nil, fmt.Errorf("%w: %s is a built-in profile's name; a profile file needs its own", ErrProfile, p.Name)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	added.Lock()
	defer added.Unlock()
	for _, f := range added.list {
		if f.p.Name != p.Name {
			continue
		}
		if f.digest != digest {
			return nil, fmt.Errorf("%w: two files name a profile %s (%s and %s)", ErrProfile, p.Name, f.digest, digest)
		}
		return f.p, nil
	}
	added.list = append(added.list, fileProfile{p, digest})
	return p, nil
}

// ProfileFileDigest returns the digest of the file that gave a profile
// (AddProfile), false for a built-in or unknown one.
func ProfileFileDigest(name string) (string, bool) {
	added.Lock()
	defer added.Unlock()
	for _, f := range added.list {
		if f.p.Name == name {
			return f.digest, true
		}
	}
	return "", false
}
