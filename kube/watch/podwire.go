package watch

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// This file reads a pod straight from the API server's protobuf into the
// pod slimPod keeps, so that the console never decodes a whole pod: client-go
// would decode every field (managed fields, volumes, env, probes…) only for
// the transform to throw nearly all of it away. Fields the console does not
// read are stepped over without being looked at, and so are fields a newer
// API server adds.
//
// The field numbers are k8s.io/api/core/v1/generated.proto's and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto's; the way each value
// is read (merging of repeated messages, Time's whole seconds in local time,
// what counts as malformed) follows their gogo-generated Unmarshal methods,
// so that the result is exactly slimPod of client-go's decoding
// (TestWirePodIsSlimPod proves it field by field).

// decodePod fills p (a zero pod) from a Pod message as slimPod would keep it.
func decodePod(b []byte, p *corev1.Pod) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeMeta(v, &p.ObjectMeta))
			}
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeSpec(v, &p.Spec))
			}
		case 3:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeStatus(v, &p.Status))
			}
		default:
			w.skip(typ)
		}
	})
	if w.err != nil {
		return w.err
	}
	// pinnedNode: a bound pod's node is its nodeName, whichever of the two
	// fields came first.
	if p.Spec.NodeName != "" {
		p.Spec.Affinity = nil
	}
	return nil
}

// decodePodList fills l (a zero list) from a PodList message.
func decodePodList(b []byte, l *corev1.PodList) error {
	// Counting the items first sizes the list once; a list of thousands of
	// pods would otherwise be copied as it grows.
	n := 0
	count := wire{b: b}
	count.each(func(num int32, typ int) {
		if num == 2 {
			n++
		}
		count.skip(typ)
	})
	if count.err != nil {
		return count.err
	}
	if n > 0 {
		l.Items = make([]corev1.Pod, 0, n)
	}
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			// The list's resourceVersion and continue token are what the
			// reflector resumes from: read whole, by apimachinery.
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(l.ListMeta.Unmarshal(v))
			}
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				l.Items = append(l.Items, corev1.Pod{})
				w.fail(decodePod(v, &l.Items[len(l.Items)-1]))
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeMeta(b []byte, m *metav1.ObjectMeta) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			m.Name = w.str(typ, num)
		case 3:
			m.Namespace = w.str(typ, num)
		case 5:
			m.UID = types.UID(w.str(typ, num))
		case 6:
			m.ResourceVersion = w.str(typ, num)
		case 8:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeTime(v, &m.CreationTimestamp))
			}
		case 9:
			if v := w.bytes(typ, num); w.err == nil {
				if m.DeletionTimestamp == nil {
					m.DeletionTimestamp = &metav1.Time{}
				}
				w.fail(decodeTime(v, m.DeletionTimestamp))
			}
		case 10:
			v := int64(w.uint(typ, num))
			m.DeletionGracePeriodSeconds = &v
		case 11:
			if v := w.bytes(typ, num); w.err == nil {
				k, val, err := mapEntry(v)
				if err != nil {
					w.fail(err)
					break
				}
				if m.Labels == nil {
					m.Labels = map[string]string{}
				}
				m.Labels[shared(k)] = string(val)
			}
		case 12:
			// Annotations are dropped but one: the bookmark that ends a
			// streaming list says so in an annotation, and client-go's
			// reflector waits for it.
			if v := w.bytes(typ, num); w.err == nil {
				k, val, err := mapEntry(v)
				if err != nil {
					w.fail(err)
					break
				}
				if string(k) == metav1.InitialEventsAnnotationKey {
					if m.Annotations == nil {
						m.Annotations = map[string]string{}
					}
					m.Annotations[metav1.InitialEventsAnnotationKey] = string(val)
				}
			}
		case 13:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeOwner(v, m))
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

// decodeOwner keeps the first controller reference (controllerRef); the
// other owners are read without a string being made.
func decodeOwner(b []byte, m *metav1.ObjectMeta) error {
	var apiVersion, kind, name, uid []byte
	var controller *bool
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 5:
			apiVersion = w.bytes(typ, num)
		case 1:
			kind = w.bytes(typ, num)
		case 3:
			name = w.bytes(typ, num)
		case 4:
			uid = w.bytes(typ, num)
		case 6:
			c := w.uint(typ, num) != 0
			controller = &c
		case 7:
			w.uint(typ, num)
		default:
			w.skip(typ)
		}
	})
	if w.err != nil {
		return w.err
	}
	if m.OwnerReferences == nil && controller != nil && *controller {
		m.OwnerReferences = []metav1.OwnerReference{{APIVersion: shared(apiVersion), Kind: shared(kind), Name: string(name),
			UID: types.UID(string(uid)), Controller: controller}}
	}
	return nil
}

// decodeTime reads a Time as metav1.Time.Unmarshal does: whole seconds, in
// local time; an empty message is the zero time.
func decodeTime(b []byte, t *metav1.Time) error {
	if len(b) == 0 {
		t.Time = time.Time{}
		return nil
	}
	var seconds int64
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			seconds = int64(w.uint(typ, num))
		case 2:
			w.uint(typ, num) // nanos, which Time drops
		default:
			w.skip(typ)
		}
	})
	if w.err != nil {
		return w.err
	}
	t.Time = time.Unix(seconds, 0).Local()
	return nil
}

func decodeSpec(b []byte, s *corev1.PodSpec) error {
	inits, containers, _ := fieldCounts(b, 20, 2, 0)
	s.InitContainers = sized(s.InitContainers, inits)
	s.Containers = sized(s.Containers, containers)
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 20:
			if v := w.bytes(typ, num); w.err == nil {
				s.InitContainers = append(s.InitContainers, corev1.Container{})
				w.fail(decodeContainer(v, &s.InitContainers[len(s.InitContainers)-1], true))
			}
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				s.Containers = append(s.Containers, corev1.Container{})
				w.fail(decodeContainer(v, &s.Containers[len(s.Containers)-1], false))
			}
		case 10:
			s.NodeName = w.str(typ, num)
		case 18:
			// Affinity → nodeAffinity → required → nodeSelectorTerms.
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(descend(v, []int32{1, 1, 1}, func(term []byte) error { return decodeTerm(term, s) }))
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

// fieldCounts counts fields x, y and z of message m (0 for none), so that
// their slices are made once, exactly as long as slimPod makes them: the
// cache keeps them, and append's spare capacity would be kept with them.
// Errors are left to the pass that reads the fields.
func fieldCounts(m []byte, x, y, z int32) (nx, ny, nz int) {
	w := wire{b: m}
	for {
		num, typ, ok := w.next()
		if !ok {
			return nx, ny, nz
		}
		switch num {
		case x:
			nx++
		case y:
			ny++
		case z:
			nz++
		}
		w.skip(typ)
	}
}

// sized is s with room for n more elements, unless it already has some
// (a message repeated on the wire merges into the first).
func sized[T any](s []T, n int) []T {
	if s != nil || n == 0 {
		return s
	}
	return make([]T, 0, n)
}

// descend calls at for every message found at path's field numbers, each
// level a message; whatever else the levels hold is skipped.
func descend(b []byte, path []int32, at func([]byte) error) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		if num != path[0] {
			w.skip(typ)
			return
		}
		v := w.bytes(typ, num)
		if w.err != nil {
			return
		}
		if len(path) == 1 {
			w.fail(at(v))
		} else {
			w.fail(descend(v, path[1:], at))
		}
	})
	return w.err
}

// decodeTerm keeps a node selector term's matchFields, the part that pins a
// daemon pod to its node (pinnedNode).
func decodeTerm(b []byte, s *corev1.PodSpec) error {
	var fields []corev1.NodeSelectorRequirement
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1: // matchExpressions
			w.bytes(typ, num)
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				fields = append(fields, corev1.NodeSelectorRequirement{})
				w.fail(decodeRequirement(v, &fields[len(fields)-1]))
			}
		default:
			w.skip(typ)
		}
	})
	if w.err != nil || len(fields) == 0 {
		return w.err
	}
	if s.Affinity == nil {
		s.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
	}
	req := s.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	req.NodeSelectorTerms = append(req.NodeSelectorTerms, corev1.NodeSelectorTerm{MatchFields: fields})
	return nil
}

func decodeRequirement(b []byte, r *corev1.NodeSelectorRequirement) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			r.Key = w.word(typ, num)
		case 2:
			r.Operator = corev1.NodeSelectorOperator(w.word(typ, num))
		case 3:
			if v := w.bytes(typ, num); w.err == nil {
				r.Values = append(r.Values, string(v))
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

// decodeContainer keeps a container's name and image, and an init
// container's restart policy (slimContainers).
func decodeContainer(b []byte, c *corev1.Container, init bool) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch {
		case num == 1:
			c.Name = w.str(typ, num)
		case num == 2:
			c.Image = w.str(typ, num)
		case num == 24 && init:
			if v := w.bytes(typ, num); w.err == nil {
				p := corev1.ContainerRestartPolicy(shared(v))
				c.RestartPolicy = &p
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeStatus(b []byte, s *corev1.PodStatus) error {
	conditions, statuses, inits := fieldCounts(b, 2, 8, 10)
	s.Conditions = sized(s.Conditions, conditions)
	s.ContainerStatuses = sized(s.ContainerStatuses, statuses)
	s.InitContainerStatuses = sized(s.InitContainerStatuses, inits)
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			s.Phase = corev1.PodPhase(w.word(typ, num))
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				s.Conditions = append(s.Conditions, corev1.PodCondition{})
				w.fail(decodeCondition(v, &s.Conditions[len(s.Conditions)-1]))
			}
		case 3:
			s.Message = w.str(typ, num)
		case 4:
			s.Reason = w.word(typ, num)
		case 6:
			s.PodIP = w.str(typ, num)
		case 7:
			if v := w.bytes(typ, num); w.err == nil {
				if s.StartTime == nil {
					s.StartTime = &metav1.Time{}
				}
				w.fail(decodeTime(v, s.StartTime))
			}
		case 8:
			if v := w.bytes(typ, num); w.err == nil {
				s.ContainerStatuses = append(s.ContainerStatuses, corev1.ContainerStatus{})
				w.fail(decodeContainerStatus(v, &s.ContainerStatuses[len(s.ContainerStatuses)-1]))
			}
		case 9:
			s.QOSClass = corev1.PodQOSClass(w.word(typ, num))
		case 10:
			if v := w.bytes(typ, num); w.err == nil {
				s.InitContainerStatuses = append(s.InitContainerStatuses, corev1.ContainerStatus{})
				w.fail(decodeContainerStatus(v, &s.InitContainerStatuses[len(s.InitContainerStatuses)-1]))
			}
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeCondition(b []byte, c *corev1.PodCondition) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			c.Type = corev1.PodConditionType(w.word(typ, num))
		case 2:
			c.Status = corev1.ConditionStatus(w.word(typ, num))
		case 4:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeTime(v, &c.LastTransitionTime))
			}
		case 5:
			c.Reason = w.word(typ, num)
		case 6:
			c.Message = w.str(typ, num)
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeContainerStatus(b []byte, s *corev1.ContainerStatus) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			s.Name = w.str(typ, num)
		case 2:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeState(v, &s.State))
			}
		case 3:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeState(v, &s.LastTerminationState))
			}
		case 4:
			s.Ready = w.uint(typ, num) != 0
		case 5:
			s.RestartCount = int32(w.uint(typ, num))
		case 6:
			s.Image = w.str(typ, num)
		case 9:
			v := w.uint(typ, num) != 0
			s.Started = &v
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeState(b []byte, s *corev1.ContainerState) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		v := []byte(nil)
		if num >= 1 && num <= 3 {
			if v = w.bytes(typ, num); w.err != nil {
				return
			}
		}
		switch num {
		case 1:
			if s.Waiting == nil {
				s.Waiting = &corev1.ContainerStateWaiting{}
			}
			w.fail(decodeWaiting(v, s.Waiting))
		case 2:
			if s.Running == nil {
				s.Running = &corev1.ContainerStateRunning{}
			}
			w.fail(descendTime(v, 1, &s.Running.StartedAt))
		case 3:
			if s.Terminated == nil {
				s.Terminated = &corev1.ContainerStateTerminated{}
			}
			w.fail(decodeTerminated(v, s.Terminated))
		default:
			w.skip(typ)
		}
	})
	return w.err
}

func decodeWaiting(b []byte, s *corev1.ContainerStateWaiting) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			s.Reason = w.word(typ, num)
		case 2:
			s.Message = w.str(typ, num)
		default:
			w.skip(typ)
		}
	})
	return w.err
}

// descendTime reads the Time at field num of a message that holds nothing
// else the console reads.
func descendTime(b []byte, field int32, t *metav1.Time) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		if num != field {
			w.skip(typ)
			return
		}
		if v := w.bytes(typ, num); w.err == nil {
			w.fail(decodeTime(v, t))
		}
	})
	return w.err
}

// decodeTerminated keeps all but the container ID (slimState).
func decodeTerminated(b []byte, s *corev1.ContainerStateTerminated) error {
	w := wire{b: b}
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			s.ExitCode = int32(w.uint(typ, num))
		case 2:
			s.Signal = int32(w.uint(typ, num))
		case 3:
			s.Reason = w.word(typ, num)
		case 4:
			s.Message = w.str(typ, num)
		case 5:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeTime(v, &s.StartedAt))
			}
		case 6:
			if v := w.bytes(typ, num); w.err == nil {
				w.fail(decodeTime(v, &s.FinishedAt))
			}
		case 7:
			w.bytes(typ, num) // the container ID, which nobody reads
		default:
			w.skip(typ)
		}
	})
	return w.err
}
