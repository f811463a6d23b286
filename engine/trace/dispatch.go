package trace

import "time"

// These pick the encoding of each line type.

func (w *Writer) writeReplicaSet(t time.Duration, key objectKey, l replicaSetLine) {
	if w.table {
		w.tableReplicaSet(t, key, l)
		return
	}
	w.jsonReplicaSet(t, key, l)
}

func (w *Writer) writeDeployment(t time.Duration, key objectKey, l deploymentLine) {
	if w.table {
		w.tableDeployment(t, key, l)
		return
	}
	w.jsonDeployment(t, key, l)
}

func (w *Writer) writeNode(t time.Duration, name string, l nodeLine) {
	if w.table {
		w.tableNode(t, name, l)
		return
	}
	w.jsonNode(t, name, l)
}

func (w *Writer) writeEvent(t time.Duration, l eventLine) {
	if w.table {
		w.tableEvent(t, l)
		return
	}
	w.jsonEvent(t, l)
}

func (w *Writer) writeAction(t time.Duration, action, target, result string, set []field) {
	if w.table {
		w.tableAction(t, action, target, result, set)
		return
	}
	w.jsonAction(t, action, target, result, set)
}

func (w *Writer) writeEnd(t time.Duration, reason string) {
	if w.table {
		w.tableEndOfRun(t, reason)
		return
	}
	w.jsonEndOfRun(t, reason)
}

func (w *Writer) writeDeleted(t time.Duration, kind string, key objectKey) {
	if w.table {
		w.tableDeleted(t, kind, key)
		return
	}
	w.jsonDeleted(t, kind, key)
}
