package cmdbuf

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"
)

// Opcode is a packet's operation.
type Opcode uint8

// The opcodes.
const (
	OpNop          Opcode = 0x00 // payload ignored
	OpMarker       Opcode = 0x01 // attribution label
	OpChain        Opcode = 0x02 // continue in the buffer's next chunk
	OpWork         Opcode = 0x10 // draw, dispatch, copy, ...: a stage, a duration, memory accesses
	OpWait         Opcode = 0x20 // drain stages, hold later stages
	OpCache        Opcode = 0x21 // flush and/or invalidate caches
	OpDecompress   Opcode = 0x22 // rewrite a surface region as plain bytes
	OpMetadataInit Opcode = 0x23 // set a surface region's compression metadata
	OpEventSignal  Opcode = 0x30 // record a drain point under an event id
	OpEventWait    Opcode = 0x31 // hold stages until an event's drain point
	OpFenceSignal  Opcode = 0x32 // signal a fence when all prior work completes
	OpFenceWait    Opcode = 0x33 // wait for a fence value
	OpCall         Opcode = 0x40 // execute another command buffer, then continue
)

var opcodeNames = map[Opcode]string{
	OpNop: "NOP", OpMarker: "MARKER", OpChain: "CHAIN", OpWork: "WORK", OpWait: "WAIT", OpCache: "CACHE",
	OpDecompress: "DECOMPRESS", OpMetadataInit: "METADATA_INIT", OpEventSignal: "EVENT_SIGNAL",
	OpEventWait: "EVENT_WAIT", OpFenceSignal: "FENCE_SIGNAL", OpFenceWait: "FENCE_WAIT", OpCall: "CALL",
}

// Opcodes lists every defined opcode, ascending.
func Opcodes() []Opcode { return slices.Sorted(maps.Keys(opcodeNames)) }

// Known reports whether the opcode is defined.
func (o Opcode) Known() bool { _, ok := opcodeNames[o]; return ok }

func (o Opcode) String() string {
	if s, ok := opcodeNames[o]; ok {
		return s
	}
	return fmt.Sprintf("OP_0x%02x", uint8(o))
}

// Stage is one pipeline stage of an engine. Work occupies a stage; a WAIT
// drains stages and holds stages.
type Stage uint8

// The stages. CP is the command processor itself: the synchronous packets
// (cache operations, compression operations, markers, fence and event
// packets) run there, in stream order. BLIT runs asynchronous cache and
// compression operations.
const (
	StageCP       Stage = iota // command processor; indirect-argument and predicate fetch
	StageInput                 // index and vertex fetch
	StageVertex                // vertex, geometry, mesh shading
	StagePixel                 // pixel shading
	StageDepth                 // depth-stencil test and write
	StageColor                 // colour output (render targets)
	StageCompute               // compute shading
	StageRaytrace              // raytracing shading
	StageASBuild               // acceleration-structure build, copy, postbuild
	StageCopy                  // copy (blit) engine
	StageResolve               // multisample resolve
	StageBlit                  // asynchronous cache and compression work
	StageVideo                 // video decode, process and encode engines
	StageClear                 // unordered-access clears
	NumStages
)

var stageNames = [NumStages]string{"CP", "INPUT", "VERTEX", "PIXEL", "DEPTH", "COLOR", "COMPUTE", "RAYTRACE",
	"ASBUILD", "COPY", "RESOLVE", "BLIT", "VIDEO", "CLEAR"}

func (s Stage) String() string {
	if s < NumStages {
		return stageNames[s]
	}
	return fmt.Sprintf("STAGE_%d", uint8(s))
}

// Mask returns the stage as a one-bit mask.
func (s Stage) Mask() StageMask { return 1 << s }

// StageMask is a set of stages.
type StageMask uint32

// AllStages is every stage.
const AllStages StageMask = 1<<NumStages - 1

// Has reports whether s is in the mask.
func (m StageMask) Has(s Stage) bool { return m&s.Mask() != 0 }

func (m StageMask) String() string {
	return maskString(uint32(m), uint32(AllStages), "ALL", "NONE", func(i int) string { return Stage(i).String() })
}

// ParseStageMask accepts what String prints.
func ParseStageMask(s string) (StageMask, error) {
	v, err := parseMask(s, "ALL", uint32(AllStages), "NONE", int(NumStages), func(i int) string { return Stage(i).String() })
	return StageMask(v), err
}

// Cache is one kind of cache. Which kinds a GPU has, which clients go
// through them and what lies behind them is the hardware profile's; a
// CACHE packet names kinds, and the engine applies it to its own instance of
// each (and to the shared ones).
type Cache uint8

// The cache kinds.
const (
	CacheColor     Cache = iota // render-target back end
	CacheDepth                  // depth-stencil back end
	CacheTextureL0              // shader loads (read-only)
	CacheShaderL0               // shader stores and unordered access (write-back)
	CacheL2                     // shared second level
	CacheVideo                  // video engines
	NumCaches
)

var cacheNames = [NumCaches]string{"COLOR", "DEPTH", "TEXTURE_L0", "SHADER_L0", "L2", "VIDEO"}

func (c Cache) String() string {
	if c < NumCaches {
		return cacheNames[c]
	}
	return fmt.Sprintf("CACHE_%d", uint8(c))
}

// Mask returns the cache as a one-bit mask.
func (c Cache) Mask() CacheMask { return 1 << c }

// CacheMask is a set of cache kinds.
type CacheMask uint32

// AllCaches is every cache kind.
const AllCaches CacheMask = 1<<NumCaches - 1

// Has reports whether c is in the mask.
func (m CacheMask) Has(c Cache) bool { return m&c.Mask() != 0 }

func (m CacheMask) String() string {
	return maskString(uint32(m), uint32(AllCaches), "ALL", "NONE", func(i int) string { return Cache(i).String() })
}

// ParseCacheMask accepts what String prints.
func ParseCacheMask(s string) (CacheMask, error) {
	v, err := parseMask(s, "ALL", uint32(AllCaches), "NONE", int(NumCaches), func(i int) string { return Cache(i).String() })
	return CacheMask(v), err
}

// Client is the hardware unit an access goes through; the profile maps an
// engine's client to its first cache and says whether it decodes compression.
type Client uint8

// The clients.
const (
	ClientCP          Client = iota // command processor: indirect arguments, predicates
	ClientVertexFetch               // index and vertex buffers
	ClientConstFetch                // constant buffers
	ClientShaderLoad                // shader resource reads
	ClientShaderStore               // unordered access (reads and writes)
	ClientColor                     // render-target reads and writes, resolves
	ClientDepth                     // depth-stencil reads and writes
	ClientCopy                      // copies
	ClientStreamOut                 // stream output
	ClientASBuild                   // acceleration-structure builds and copies
	ClientRTTraverse                // acceleration-structure traversal
	ClientVideo                     // video engines
	ClientBlit                      // decompression and metadata work
	NumClients
)

var clientNames = [NumClients]string{"CP", "VERTEX_FETCH", "CONST_FETCH", "SHADER_LOAD", "SHADER_STORE", "COLOR",
	"DEPTH", "COPY", "STREAM_OUT", "AS_BUILD", "RT_TRAVERSE", "VIDEO", "BLIT"}

func (c Client) String() string {
	if c < NumClients {
		return clientNames[c]
	}
	return fmt.Sprintf("CLIENT_%d", uint8(c))
}

// ParseClient accepts what String prints.
func ParseClient(s string) (Client, error) {
	for i, n := range clientNames {
		if n == s {
			return Client(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a client", s)
}

// WorkKind says what a WORK packet does with what it reads.
type WorkKind uint8

// The kinds of work. Copy kinds copy their reads to their writes byte for
// byte, clears write their parameter, discards write an undefined pattern, and
// every other kind writes a deterministic function of what it read and of its
// identity, so results chain.
const (
	WorkDraw WorkKind = iota
	WorkDispatch
	WorkDispatchRays
	WorkCopy
	WorkResolve
	WorkClear
	WorkDiscard
	WorkAtomicCopy
	WorkExecuteIndirect
	// WorkPredication reads the predicate (its one read access, up to 8
	// bytes, zero-extended little-endian) and captures it for the
	// predicated WORK after it on the engine: Param PredicateSkipIfZero
	// skips them when it is zero, PredicateSkipIfNonZero when it is not;
	// PredicateOff (no access) ends predication. Any other form only
	// reads.
	WorkPredication
	WorkVideoDecode
	WorkVideoProcess
	WorkVideoEncode
	WorkASBuild
	WorkASCopy
	WorkASPostbuild
	NumWorkKinds
)

var workNames = [NumWorkKinds]string{"DRAW", "DISPATCH", "DISPATCH_RAYS", "COPY", "RESOLVE", "CLEAR", "DISCARD",
	"ATOMIC_COPY", "EXECUTE_INDIRECT", "PREDICATION", "VIDEO_DECODE", "VIDEO_PROCESS", "VIDEO_ENCODE",
	"AS_BUILD", "AS_COPY", "AS_POSTBUILD"}

func (k WorkKind) String() string {
	if k < NumWorkKinds {
		return workNames[k]
	}
	return fmt.Sprintf("WORK_%d", uint8(k))
}

// The PREDICATION work's parameters.
const (
	PredicateOff           uint32 = 0
	PredicateSkipIfZero    uint32 = 1
	PredicateSkipIfNonZero uint32 = 2
)

// IsCopy reports whether the kind copies its reads to its writes.
func (k WorkKind) IsCopy() bool { return k == WorkCopy || k == WorkAtomicCopy || k == WorkASCopy }

// Dir is an access's direction.
type Dir uint8

// The directions.
const (
	DirRead  Dir = 1
	DirWrite Dir = 2
)

func (d Dir) String() string {
	switch d {
	case DirRead:
		return "R"
	case DirWrite:
		return "W"
	}
	return fmt.Sprintf("DIR_%d", uint8(d))
}

func maskString(v, all uint32, allName, none string, name func(int) string) string {
	if v == 0 {
		return none
	}
	if v == all {
		return allName
	}
	var parts []string
	for rest := v; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros32(rest)
		if all&(1<<i) == 0 {
			parts = append(parts, fmt.Sprintf("0x%x", uint32(1)<<i))
			continue
		}
		parts = append(parts, name(i))
	}
	return strings.Join(parts, "|")
}

func parseMask(s, allName string, all uint32, none string, n int, name func(int) string) (uint32, error) {
	if s == none {
		return 0, nil
	}
	if s == allName {
		return all, nil
	}
	var v uint32
outer:
	for part := range strings.SplitSeq(s, "|") {
		for i := 0; i < n; i++ {
			if name(i) == part {
				v |= 1 << i
				continue outer
			}
		}
		var x uint32
		if _, err := fmt.Sscanf(part, "0x%x", &x); err == nil {
			v |= x
			continue
		}
		return 0, fmt.Errorf("%q is not one of the names", part)
	}
	return v, nil
}
