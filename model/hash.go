package model

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	"k8s.io/apimachinery/pkg/util/rand"
)

// PodTemplateHash is the pod-template-hash label value upstream computes for
// a template: FNV-1a over the template's deterministic dump, then the
// collision count (when set) as 8 little-endian bytes, and the decimal sum
// mapped to the safe alphabet. A ReplicaSet is named <deployment>-<hash>; a
// name clash bumps collisionCount and so changes the hash.
func PodTemplateHash(t *corev1.PodTemplateSpec, collisionCount *int32) string {
	if t == nil {
		t = &corev1.PodTemplateSpec{}
	}
	h := fnv.New32a()
	// The value, not the pointer, is dumped: the dump names its type.
	fmt.Fprintf(h, "%v", dump.ForHash(*t))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		h.Write(b)
	}
	return rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}
