package ddi

import (
	"fmt"
	"strings"
)

// QueryHeapType is D3D12_QUERY_HEAP_TYPE (d3d12.h): what a query heap's
// queries count. ebref implements OCCLUSION (for OCCLUSION and
// BINARY_OCCLUSION queries) and TIMESTAMP; the others are named so that
// their refusal says what they are.
type QueryHeapType uint32

// The query heap types.
const (
	QueryHeapTypeOcclusion             QueryHeapType = 0
	QueryHeapTypeTimestamp             QueryHeapType = 1
	QueryHeapTypePipelineStatistics    QueryHeapType = 2
	QueryHeapTypeSOStatistics          QueryHeapType = 3
	QueryHeapTypeVideoDecodeStatistics QueryHeapType = 4
	QueryHeapTypeCopyQueueTimestamp    QueryHeapType = 5
	QueryHeapTypePipelineStatistics1   QueryHeapType = 7
	queryHeapTypeNames                               = "OCCLUSION TIMESTAMP PIPELINE_STATISTICS SO_STATISTICS VIDEO_DECODE_STATISTICS COPY_QUEUE_TIMESTAMP - PIPELINE_STATISTICS1"
)

// QueryType is D3D12_QUERY_TYPE (d3d12.h).
type QueryType uint32

// The query types.
const (
	QueryTypeOcclusion             QueryType = 0
	QueryTypeBinaryOcclusion       QueryType = 1
	QueryTypeTimestamp             QueryType = 2
	QueryTypePipelineStatistics    QueryType = 3
	QueryTypeSOStatisticsStream0   QueryType = 4
	QueryTypeSOStatisticsStream1   QueryType = 5
	QueryTypeSOStatisticsStream2   QueryType = 6
	QueryTypeSOStatisticsStream3   QueryType = 7
	QueryTypeVideoDecodeStatistics QueryType = 8
	QueryTypePipelineStatistics1   QueryType = 10
	queryTypeNames                           = "OCCLUSION BINARY_OCCLUSION TIMESTAMP PIPELINE_STATISTICS SO_STATISTICS_STREAM0 SO_STATISTICS_STREAM1 SO_STATISTICS_STREAM2 SO_STATISTICS_STREAM3 VIDEO_DECODE_STATISTICS - PIPELINE_STATISTICS1"
)

// QueryResultSize is the bytes ResolveQueryData writes per occlusion,
// binary-occlusion or timestamp query: one UINT64 (D3D12 API,
// ResolveQueryData); the destination offset must be a multiple of it.
const QueryResultSize = 8

func enumName(names string, v uint32, kind string) string {
	if f := strings.Fields(names); int(v) < len(f) && f[v] != "-" {
		return f[v]
	}
	return fmt.Sprintf("%s_%d", kind, v)
}

func parseEnum(names, prefix, s, what string) (uint32, error) {
	t := strings.TrimPrefix(s, prefix)
	for i, n := range strings.Fields(names) {
		if n == t && n != "-" {
			return uint32(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a %s (%s)", s, what, strings.ReplaceAll(strings.ReplaceAll(names, " - ", " "), " ", ", "))
}

func (t QueryHeapType) String() string {
	return enumName(queryHeapTypeNames, uint32(t), "QUERY_HEAP_TYPE")
}

func (t QueryType) String() string { return enumName(queryTypeNames, uint32(t), "QUERY_TYPE") }

// ParseQueryHeapType accepts what String prints, with or without the
// D3D12_QUERY_HEAP_TYPE_ prefix.
func ParseQueryHeapType(s string) (QueryHeapType, error) {
	v, err := parseEnum(queryHeapTypeNames, "D3D12_QUERY_HEAP_TYPE_", s, "query heap type")
	return QueryHeapType(v), err
}

// ParseQueryType accepts what String prints, with or without the
// D3D12_QUERY_TYPE_ prefix.
func ParseQueryType(s string) (QueryType, error) {
	v, err := parseEnum(queryTypeNames, "D3D12_QUERY_TYPE_", s, "query type")
	return QueryType(v), err
}

// HeapTakes reports whether a heap of type t holds queries of type q:
// occlusion heaps the two occlusion types, timestamp heaps timestamps.
func (t QueryHeapType) HeapTakes(q QueryType) bool {
	switch t {
	case QueryHeapTypeOcclusion:
		return q == QueryTypeOcclusion || q == QueryTypeBinaryOcclusion
	case QueryHeapTypeTimestamp:
		return q == QueryTypeTimestamp
	}
	return false
}

// HQueryHeap is a query heap's handle (D3D12DDI_HQUERYHEAP).
type HQueryHeap uint64
