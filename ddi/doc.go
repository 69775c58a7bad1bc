// Package ddi is ebref's copy of the driver interface contract for D3D12
// Enhanced Barriers: every enum, flag set and structure of the spec's DDI
// section (000 "DDI") and of the types they reference, with the C numeric
// values and the 64-bit Windows C layout, plus the spec's rule tables as data.
//
// Names follow the DDI, Go-cased: D3D12DDI_BARRIER_LAYOUT_RENDER_TARGET is
// LayoutRenderTarget, D3D12DDI_TEXTURE_BARRIER_0088 is TextureBarrier. Every
// enum and flag set prints with String and parses back with a Parse function
// that accepts the DDI and API spellings with or without their prefixes.
// The spellings, with the header's values, are data: enums.txt, from
// which go generate writes the name tables (enums_gen.go).
//
// The structures have the C layout, so Barrier is the 72-byte
// D3D12DDIARG_BARRIER_0094 and a []Barrier is what PFND3D12DDI_BARRIER_0094
// receives. DecodeBarriers and AppendEncodedBarriers move such arrays to and
// from little-endian bytes.
//
// The rule tables (UmbrellaSyncs, Queues, LayoutAccesses, AccessSyncs,
// LegacyStates and the access classes) are the single place a driver author
// looks up what the spec allows. Each row cites its spec section; rows where
// ebref departs from the spec's literal text name the docs/errata.md entry
// that records the decision.
//
// This package imports internal/ortable and nothing else of ebref: the
// helper's tables answer the access classes' questions, and know no
// barrier.
package ddi
