package trace

import (
	"strconv"
	"time"
)

// Trace line types.
const (
	kindDeployment = "deployment"
	kindReplicaSet = "replicaset"
	kindNode       = "node"
	kindEvent      = "event"
	kindAction     = "action"
	kindEnd        = "end"
)

// JSONL lines are built field by field in the order ARCHITECTURE.md gives,
// so that equal input always gives equal bytes.

func (w *Writer) jsonStart(t time.Duration, kind string) []byte {
	b := append(w.line[:0], `{"t":`...)
	b = appendSeconds(b, t)
	b = append(b, `,"type":"`...)
	b = append(b, kind...)
	return append(b, '"')
}

func (w *Writer) jsonFinish(b []byte) {
	b = append(b, '}', '\n')
	w.line = b
	_, _ = w.out.Write(b) // bufio keeps the first error for Flush
}

func appendStringField(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

func appendIntField(b []byte, name string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendBoolField(b []byte, name string, v bool) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendBool(b, v)
}

// appendRefField appends "kind/name", or "" when there is no kind.
func appendRefField(b []byte, field, kind, name string) []byte {
	b = append(b, ',', '"')
	b = append(b, field...)
	b = append(b, `":"`...)
	if kind != "" {
		b = appendJSONBody(b, kind)
		b = append(b, '/')
		b = appendJSONBody(b, name)
	}
	return append(b, '"')
}

func (w *Writer) jsonReplicaSet(t time.Duration, key objectKey, l replicaSetLine) {
	b := w.jsonStart(t, kindReplicaSet)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	b = appendRefField(b, "owner", l.ownerKind, l.ownerName)
	b = appendIntField(b, "revision", l.revision)
	b = appendIntField(b, "spec", int64(l.spec))
	b = appendIntField(b, "replicas", int64(l.replicas))
	b = appendIntField(b, "ready", int64(l.ready))
	b = appendIntField(b, "available", int64(l.available))
	w.jsonFinish(b)
}

func (w *Writer) jsonDeployment(t time.Duration, key objectKey, l deploymentLine) {
	b := w.jsonStart(t, kindDeployment)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	b = appendIntField(b, "spec", int64(l.spec))
	b = appendIntField(b, "replicas", int64(l.replicas))
	b = appendIntField(b, "updated", int64(l.updated))
	b = appendIntField(b, "ready", int64(l.ready))
	b = appendIntField(b, "available", int64(l.available))
	b = appendIntField(b, "unavailable", int64(l.unavailable))
	b = appendBoolField(b, "paused", l.paused)
	b = appendStringField(b, "progressing", l.progressing)
	b = appendStringField(b, "availableCondition", l.availableCondition)
	b = appendIntField(b, "maxSurge", int64(l.maxSurge))
	b = appendIntField(b, "maxUnavailable", int64(l.maxUnavailable))
	if l.canary.step > 0 {
		b = append(b, `,"canary":{"step":`...)
		b = strconv.AppendInt(b, int64(l.canary.step), 10)
		b = append(b, `,"state":`...)
		b = appendJSONString(b, l.canary.state)
		b = append(b, '}')
	}
	w.jsonFinish(b)
}

func (w *Writer) jsonNode(t time.Duration, name string, l nodeLine) {
	b := w.jsonStart(t, kindNode)
	b = appendStringField(b, "name", name)
	b = appendStringField(b, "group", l.group)
	b = appendBoolField(b, "ready", l.ready)
	b = appendBoolField(b, "unschedulable", l.unschedulable)
	b = appendIntField(b, "pods", int64(l.pods))
	b = appendBoolField(b, "upToDate", l.upToDate)
	w.jsonFinish(b)
}

func (w *Writer) jsonEvent(t time.Duration, l eventLine) {
	b := w.jsonStart(t, kindEvent)
	b = appendRefField(b, "object", l.objectKind, l.objectName)
	if ns := w.elsewhere(l.namespace); ns != "" {
		b = appendStringField(b, "namespace", ns)
	}
	b = appendStringField(b, "reason", l.reason)
	b = appendStringField(b, "message", l.message)
	w.jsonFinish(b)
}

func (w *Writer) jsonAction(t time.Duration, action, target, result string, set []field) {
	b := w.jsonStart(t, kindAction)
	b = appendStringField(b, "action", action)
	b = appendStringField(b, "target", target)
	for _, f := range set {
		if f.number {
			b = append(b, ',', '"')
			b = append(b, f.name...)
			b = append(b, '"', ':')
			b = append(b, f.value...)
			continue
		}
		b = appendStringField(b, f.name, f.value)
	}
	b = appendStringField(b, "result", result)
	w.jsonFinish(b)
}

func (w *Writer) jsonEndOfRun(t time.Duration, reason string) {
	b := w.jsonStart(t, kindEnd)
	b = appendStringField(b, "reason", reason)
	w.jsonFinish(b)
}

// jsonDeleted writes the deletion of an object; nodes have no namespace and
// their lines carry none.
func (w *Writer) jsonDeleted(t time.Duration, kind string, key objectKey) {
	b := w.jsonStart(t, kind)
	if kind != kindNode {
		b = appendStringField(b, "namespace", key.namespace)
	}
	b = appendStringField(b, "name", key.name)
	b = appendBoolField(b, "deleted", true)
	w.jsonFinish(b)
}
