package watch

import (
	"errors"
	"fmt"
)

// The protobuf wire format as podwire reads it: one message at a time,
// values viewed in place rather than copied, and the same leniencies and
// refusals as the gogo-generated Unmarshal methods client-go uses.

var (
	errWireEOF      = errors.New("pod protobuf: unexpected end of data")
	errWireOverflow = errors.New("pod protobuf: integer overflow")
	errWireLength   = errors.New("pod protobuf: negative length")
)

// wire reads one protobuf message; its first error stops it.
type wire struct {
	b   []byte
	i   int
	err error
}

// fail records err, if any, and stops reading.
func (w *wire) fail(err error) {
	if err == nil {
		return
	}
	if w.err == nil {
		w.err = err
	}
	w.i = len(w.b)
}

// varint reads as gogo's generated code does: at most ten bytes, bits past
// the 64th dropped.
func (w *wire) varint() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= 64 {
			w.fail(errWireOverflow)
			return 0
		}
		if w.i >= len(w.b) {
			w.fail(errWireEOF)
			return 0
		}
		c := w.b[w.i]
		w.i++
		v |= uint64(c&0x7F) << shift
		if c < 0x80 {
			return v
		}
	}
}

// next reads a field's key; false at the end of the message or on an error.
func (w *wire) next() (num int32, typ int, ok bool) {
	if w.i >= len(w.b) {
		return 0, 0, false
	}
	key := w.varint()
	if w.err != nil {
		return 0, 0, false
	}
	num, typ = int32(key>>3), int(key&7)
	switch {
	case typ == 4:
		w.fail(errors.New("pod protobuf: end group outside a group"))
		return 0, 0, false
	case num <= 0:
		w.fail(fmt.Errorf("pod protobuf: illegal field number %d", num))
		return 0, 0, false
	}
	return num, typ, true
}

// want checks a kept field's wire type, as gogo's code does.
func (w *wire) want(typ, expected int, num int32) bool {
	if typ != expected {
		w.fail(fmt.Errorf("pod protobuf: field %d has wire type %d, want %d", num, typ, expected))
		return false
	}
	return true
}

// raw reads a length-delimited value without copying it.
func (w *wire) raw() []byte {
	n := w.varint()
	if w.err != nil {
		return nil
	}
	if int64(n) < 0 {
		w.fail(errWireLength)
		return nil
	}
	if n > uint64(len(w.b)-w.i) {
		w.fail(errWireEOF)
		return nil
	}
	v := w.b[w.i : w.i+int(n)]
	w.i += int(n)
	return v
}

func (w *wire) bytes(typ int, num int32) []byte {
	if !w.want(typ, 2, num) {
		return nil
	}
	return w.raw()
}

// str copies: the frame a watch decodes from is reused for the next one.
func (w *wire) str(typ int, num int32) string { return string(w.bytes(typ, num)) }

// word is str for a field whose values are few (a phase, a condition's type
// and status, a reason, an owner's kind): the common ones are shared rather
// than allocated for every pod, which also shares them in the cache.
func (w *wire) word(typ int, num int32) string { return shared(w.bytes(typ, num)) }

var words = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		// Phases, QoS classes, condition types and statuses.
		"Pending", "Running", "Succeeded", "Failed", "Unknown", "BestEffort", "Burstable", "Guaranteed",
		"PodScheduled", "PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready", "DisruptionTarget",
		"True", "False",
		// Reasons kubelets, schedulers and controllers give.
		"Unschedulable", "SchedulerError", "ContainerCreating", "PodInitializing", "CrashLoopBackOff",
		"ImagePullBackOff", "ErrImagePull", "ErrImageNeverPull", "CreateContainerConfigError", "CreateContainerError",
		"InvalidImageName", "RunContainerError", "Completed", "Error", "OOMKilled", "ContainersNotReady",
		"ContainersNotInitialized", "PodCompleted", "Evicted", "Preempting", "TerminationByKubelet", "DeletionByTaintManager",
		"EvictionByEvictionAPI", "NodeLost",
		// Owners, restart policies, node selector operators, common label keys.
		"v1", "apps/v1", "batch/v1", "ReplicaSet", "StatefulSet", "DaemonSet", "ReplicationController", "Job", "Node",
		"Always", "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "metadata.name",
		"app", "app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component", "pod-template-hash",
		"controller-revision-hash", "pod-template-generation", "statefulset.kubernetes.io/pod-name",
		"apps.kubernetes.io/pod-index", "tier", "track", "version",
	} {
		m[s] = s
	}
	return m
}()

func (w *wire) uint(typ int, num int32) uint64 {
	if !w.want(typ, 0, num) {
		return 0
	}
	return w.varint()
}

// skip steps over the value of a field whose key was just read, as gogo's
// skipGenerated does (groups included).
func (w *wire) skip(typ int) {
	depth := 0
	for {
		switch typ {
		case 0:
			w.varint()
		case 1:
			w.advance(8)
		case 2:
			w.raw()
		case 3:
			depth++
		case 4:
			if depth == 0 {
				w.fail(errors.New("pod protobuf: unexpected end of group"))
			}
			depth--
		case 5:
			w.advance(4)
		default:
			w.fail(fmt.Errorf("pod protobuf: illegal wire type %d", typ))
		}
		if w.err != nil || depth == 0 {
			return
		}
		if w.i >= len(w.b) {
			w.fail(errWireEOF)
			return
		}
		typ = int(w.varint() & 7)
		if w.err != nil {
			return
		}
	}
}

func (w *wire) advance(n int) {
	if n > len(w.b)-w.i {
		w.fail(errWireEOF)
		return
	}
	w.i += n
}

// mapEntry reads a map<string,string> entry as gogo does: a missing key or
// value is "", and neither's wire type is checked.
func mapEntry(b []byte) (k, v []byte, err error) {
	w := wire{b: b}
	for w.i < len(w.b) && w.err == nil {
		key := w.varint()
		if w.err != nil {
			break
		}
		switch key >> 3 {
		case 1:
			k = w.raw()
		case 2:
			v = w.raw()
		default:
			w.skip(int(key & 7))
		}
	}
	return k, v, w.err
}

// shared is b as a string, shared when it is a common word.
func shared(b []byte) string {
	if s, ok := words[string(b)]; ok {
		return s
	}
	return string(b)
}

// each hands read every field's number and wire type in turn; read takes
// the value or skips it. It stops at the end of the message or at the
// first error, which stays in w.err.
func (w *wire) each(read func(num int32, typ int)) {
	for {
		num, typ, ok := w.next()
		if !ok {
			return
		}
		read(num, typ)
	}
}
