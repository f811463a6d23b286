package trace

import (
	"strconv"
	"time"
)

// Column widths of the table format. A value wider than its column pushes
// the rest of its row right by the overflow, as kubectl's output does.
const (
	widthTime      = 10
	widthKind      = 8
	widthName      = 48
	widthDesired   = 9
	widthCurrent   = 9
	widthReady     = 7
	widthAvailable = 11
	widthUpToDate  = 12
)

// tableHeader is built from the same widths as the rows so the two cannot drift.
var tableHeader = func() []byte {
	var b []byte
	for _, col := range []struct {
		title string
		width int
	}{{"TIME", widthTime}, {"ROW", widthKind}, {"NAME", widthName}, {"DESIRED", widthDesired}, {"CURRENT", widthCurrent},
		{"READY", widthReady}, {"AVAILABLE", widthAvailable}, {"UP-TO-DATE", widthUpToDate}} {
		mark := len(b)
		b = append(b, col.title...)
		b = pad(b, mark, col.width)
	}
	return append(b, "STATUS\n"...)
}()

// Row kinds, the table's second column: workload rows fill the counts,
// the others say what they are in STATUS, so that a reader (or awk) can
// pick events, actions or nodes out of the stream.
const (
	rowWorkload = "object"
	rowNode     = "node"
	rowEvent    = "event"
	rowAction   = "action"
	rowEnd      = "end"
)

// tableStart begins a row with its time, row kind and name, after the
// header on the first row. Times have one precision, milliseconds.
func (w *Writer) tableStart(t time.Duration, row, kind, name string) []byte {
	if !w.header {
		w.header = true
		_, _ = w.out.Write(tableHeader)
	}
	b := appendMillis(w.line[:0], t)
	b = pad(b, 0, widthTime)
	mark := len(b)
	b = append(b, row...)
	b = pad(b, mark, widthKind)
	mark = len(b)
	if kind != "" {
		b = appendText(b, kind)
		b = append(b, '/')
	}
	b = appendText(b, name)
	return pad(b, mark, widthName)
}

func (w *Writer) tableFinish(b []byte) {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	b = append(b, '\n')
	w.line = b
	_, _ = w.out.Write(b)
}

// pad fills the column that began at mark with spaces up to width, or with
// one space when the value overflows it.
func pad(b []byte, mark, width int) []byte {
	n := width - (len(b) - mark)
	if n < 1 {
		n = 1
	}
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// countWidths are the count columns' widths: DESIRED, CURRENT, READY,
// AVAILABLE and UP-TO-DATE.
var countWidths = [...]int{widthDesired, widthCurrent, widthReady, widthAvailable, widthUpToDate}

// noCounts fills the count columns of a row that has none.
func noCounts(b []byte) []byte {
	for _, width := range countWidths {
		mark := len(b)
		b = append(b, '-')
		b = pad(b, mark, width)
	}
	return b
}

// appendMillis appends d as seconds with exactly three decimals.
func appendMillis(b []byte, d time.Duration) []byte {
	ms := d.Round(time.Millisecond).Milliseconds()
	if ms < 0 {
		b = append(b, '-')
		ms = -ms
	}
	b = strconv.AppendInt(b, ms/1000, 10)
	frac := ms % 1000
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

func appendColumn(b []byte, v int64, width int) []byte {
	mark := len(b)
	b = strconv.AppendInt(b, v, 10)
	return pad(b, mark, width)
}

// appendText appends s with control characters shown as spaces, so that an
// event message cannot break a row or drive the terminal.
func appendText(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}

func (w *Writer) tableReplicaSet(t time.Duration, key objectKey, l replicaSetLine) {
	b := w.tableObject(t, rowWorkload, kindReplicaSet, key)
	b = appendColumn(b, int64(l.spec), widthDesired)
	b = appendColumn(b, int64(l.replicas), widthCurrent)
	b = appendColumn(b, int64(l.ready), widthReady)
	b = appendColumn(b, int64(l.available), widthAvailable)
	b = append(b, '-')
	w.tableFinish(b)
}

func (w *Writer) tableDeployment(t time.Duration, key objectKey, l deploymentLine) {
	b := w.tableObject(t, rowWorkload, kindDeployment, key)
	b = appendColumn(b, int64(l.spec), widthDesired)
	b = appendColumn(b, int64(l.replicas), widthCurrent)
	b = appendColumn(b, int64(l.ready), widthReady)
	b = appendColumn(b, int64(l.available), widthAvailable)
	b = appendColumn(b, int64(l.updated), widthUpToDate)
	b = appendText(b, l.progressing)
	// Upstream says DeploymentPaused once the controller has seen the
	// pause; until then the spec alone tells.
	if l.paused && l.progressing != "DeploymentPaused" {
		b = append(b, " (paused)"...)
	}
	if l.canary.step > 0 {
		b = append(b, " canary step "...)
		b = strconv.AppendInt(b, int64(l.canary.step), 10)
		b = append(b, ' ')
		b = append(b, l.canary.state...)
		b = append(b, " maxSurge "...)
		b = strconv.AppendInt(b, int64(l.maxSurge), 10)
	}
	w.tableFinish(b)
}

// tableNode shows a node as `kubectl get nodes` words its status.
func (w *Writer) tableNode(t time.Duration, name string, l nodeLine) {
	b := noCounts(w.tableStart(t, rowNode, kindNode, name))
	if l.ready {
		b = append(b, "Ready"...)
	} else {
		b = append(b, "NotReady"...)
	}
	if l.unschedulable {
		b = append(b, ",SchedulingDisabled"...)
	}
	b = append(b, "  pods="...)
	b = strconv.AppendInt(b, int64(l.pods), 10)
	if l.upToDate {
		b = append(b, "  up-to-date"...)
	} else {
		b = append(b, "  outdated"...)
	}
	if l.group != "" {
		b = append(b, "  group="...)
		b = appendText(b, l.group)
	}
	w.tableFinish(b)
}

func (w *Writer) tableEvent(t time.Duration, l eventLine) {
	b := noCounts(w.tableObject(t, rowEvent, l.objectKind, objectKey{l.namespace, l.objectName}))
	b = appendText(b, l.reason)
	b = append(b, ": "...)
	b = appendText(b, l.message)
	w.tableFinish(b)
}

func (w *Writer) tableAction(t time.Duration, action, target, result string, set []field) {
	b := noCounts(w.tableStart(t, rowAction, "", target))
	b = appendText(b, action)
	for _, f := range set {
		b = append(b, ' ')
		b = appendText(b, f.name)
		b = append(b, '=')
		b = appendText(b, f.value)
	}
	b = append(b, ": "...)
	b = appendText(b, result)
	w.tableFinish(b)
}

func (w *Writer) tableEndOfRun(t time.Duration, reason string) {
	b := noCounts(w.tableStart(t, rowEnd, "", "end"))
	b = appendText(b, reason)
	w.tableFinish(b)
}

func (w *Writer) tableDeleted(t time.Duration, kind string, key objectKey) {
	row := rowWorkload
	if kind == kindNode {
		row = rowNode
	}
	b := noCounts(w.tableObject(t, row, kind, key))
	b = append(b, "deleted"...)
	w.tableFinish(b)
}
