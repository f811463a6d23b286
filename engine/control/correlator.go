package control

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/utils/clock"
)

// correlator is client-go's EventCorrelator with its default options and its
// EventSourceObjectSpamFilter (tools/record/events_cache.go), decision for
// decision: the same three LRU caches of 4096 entries, touched in the same
// order, so that they evict the same entries; the same aggregation of ten
// messages in ten minutes; the same counts, names and patches. What differs
// is what a new event costs, which is what a rollout is made of (one
// Scheduled event per pod): upstream joins four key strings and boxes three
// cache values and a rate limiter into interfaces, each cache entry a list
// element; here keys are structs of the event's own strings, entries live in
// a fixed array of slots, and a message set is a map only from its second
// message on. One difference no object reaches: upstream's keys are the
// fields concatenated, so two events whose fields differ but concatenate to
// the same text (kind "Po", namespace "ddefault" against "Pod", "default")
// share an entry there and not here.
type correlator struct {
	clock      clock.PassiveClock
	spam       lru[spamKey, spamRecord]
	aggregates lru[aggregateKey, aggregateRecord]
	logs       lru[logKey, eventLog]
}

// Upstream's defaults (record.maxLruCacheEntries, defaultAggregateMaxEvents,
// defaultAggregateIntervalInSeconds).
const (
	correlatorCacheSize = 4096
	aggregateMaxEvents  = 10
	aggregateInterval   = 600 * time.Second
)

func newCorrelator(c clock.PassiveClock) *correlator {
	return &correlator{
		clock:      c,
		spam:       newLRU[spamKey, spamRecord](spamCacheSize),
		aggregates: newLRU[aggregateKey, aggregateRecord](correlatorCacheSize),
		logs:       newLRU[logKey, eventLog](correlatorCacheSize),
	}
}

// spamKey is client-go's getSpamKey: events about one object, of one type,
// from one source share a rate limit.
type spamKey struct {
	component, host, kind, namespace, name, uid, apiVersion, typ string
}

func spamKeyOf(e *corev1.Event) spamKey { return spamKeyFor(&e.Source, &e.InvolvedObject, e.Type) }

// spamKeyFor is the spam key of an event of type typ from src about ref,
// before the event is built.
func spamKeyFor(src *corev1.EventSource, ref *corev1.ObjectReference, typ string) spamKey {
	return spamKey{src.Component, src.Host, ref.Kind, ref.Namespace, ref.Name, string(ref.UID), ref.APIVersion, typ}
}

// spamRecord is an object's token bucket: client-go's
// (flowcontrol.NewTokenBucketPassiveRateLimiterWithClock over
// golang.org/x/time/rate's Limiter) kept inline, with its arithmetic to the
// last bit: a new object would otherwise cost a limiter and its wrapper.
// TestTokenBucketIsClientGos compares the two.
type spamRecord struct {
	started bool // the bucket exists: upstream makes it full
	tokens  float64
	last    time.Time
}

// spamLimit is the bucket's rate as rate.Limit holds it: client-go hands
// the QPS over as a float32.
var spamLimit = float64(spamQPS)

// allow is rate.Limiter.AllowN(t, 1) for a limiter of spamLimit and
// spamBurst.
func (b *spamRecord) allow(t time.Time) bool {
	if !b.started {
		b.started, b.tokens = true, spamBurst
	}
	last := b.last
	if t.Before(last) {
		last = t
	}
	tokens := b.tokens + t.Sub(last).Seconds()*spamLimit
	if tokens > spamBurst {
		tokens = spamBurst
	}
	tokens--
	var wait time.Duration
	if tokens < 0 {
		wait = math.MaxInt64 // rate.InfDuration
		if d := (-tokens / spamLimit) * float64(time.Second); d <= float64(math.MaxInt64) {
			wait = time.Duration(d)
		}
	}
	if wait > 0 {
		return false
	}
	b.last, b.tokens = t, tokens
	return true
}

// filtered is EventSourceObjectSpamFilter.Filter: true when the event's
// object has used up its burst.
func (c *correlator) filtered(k spamKey) bool {
	return !c.spam.touch(k).allow(c.clock.Now())
}

// aggregateKey is EventAggregatorByReasonFunc's aggregate key.
type aggregateKey struct {
	spamKey
	reason, reportingController, reportingInstance string
}

// aggregateRecord is upstream's: the distinct messages seen (its local
// keys) and when the last came.
type aggregateRecord struct {
	messages messageSet
	last     time.Time
}

// messageSet is a set of strings that needs no map while it holds one: most
// objects get one message for a reason.
type messageSet struct {
	one  string
	has  bool
	more map[string]struct{} // all of them, once there are two
}

func (s *messageSet) insert(m string) {
	switch {
	case s.more != nil:
		s.more[m] = struct{}{}
	case !s.has:
		s.one, s.has = m, true
	case s.one != m:
		s.more = map[string]struct{}{s.one: {}, m: {}}
	}
}

func (s *messageSet) len() int {
	if s.more != nil {
		return len(s.more)
	}
	if s.has {
		return 1
	}
	return 0
}

// popAny is sets.Set.PopAny: it forgets an arbitrary one, as upstream's
// map iteration picks it. Only called at aggregateMaxEvents, so more is set.
func (s *messageSet) popAny() {
	for m := range s.more {
		delete(s.more, m)
		return
	}
}

// logKey is the logger cache's key: getEventKey for an event, or the
// aggregate key an aggregated event is observed under; upstream keeps both
// in one cache of strings.
type logKey struct {
	aggregateKey
	fieldPath, message string
	event              bool // getEventKey, not an aggregate key
}

// eventKeyOf is getEventKey. Without a field path and a message, upstream's
// event key is the same string as the aggregate key of an event without
// reporting controller and instance, so it is that key here too.
func eventKeyOf(e *corev1.Event) logKey {
	k := logKey{aggregateKey: aggregateKey{spamKey: spamKeyOf(e), reason: e.Reason}, fieldPath: e.InvolvedObject.FieldPath, message: e.Message, event: true}
	if k.fieldPath == "" && k.message == "" {
		k.event = false
	}
	return k
}

// eventLog is upstream's record of the last observation of an event.
type eventLog struct {
	count           uint
	firstTimestamp  metav1.Time
	name            string
	resourceVersion string
}

// correlate is EventCorrelator.EventCorrelate without its own spam filter
// (see APIRecorder.send): aggregate, then observe. ev is the caller's own and
// is the event returned when it is neither aggregated nor a repeat (upstream
// returns a copy; nothing else holds ev).
func (c *correlator) correlate(ev *corev1.Event) (*corev1.Event, []byte, error) {
	aggregated, key := c.aggregate(ev)
	return c.observe(aggregated, key)
}

// aggregate is EventAggregator.EventAggregate.
func (c *correlator) aggregate(ev *corev1.Event) (*corev1.Event, logKey) {
	now := metav1.NewTime(c.clock.Now())
	akey := aggregateKey{spamKey: spamKeyOf(ev), reason: ev.Reason, reportingController: ev.ReportingController, reportingInstance: ev.ReportingInstance}
	rec := c.aggregates.touch(akey)
	if now.Time.Sub(rec.last) > aggregateInterval {
		*rec = aggregateRecord{}
	}
	rec.messages.insert(ev.Message)
	rec.last = now.Time
	if rec.messages.len() < aggregateMaxEvents {
		return ev, eventKeyOf(ev)
	}
	rec.messages.popAny()
	return &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%v.%x", ev.InvolvedObject.Name, now.UnixNano()),
			Namespace: ev.Namespace,
		},
		Count:          1,
		FirstTimestamp: now,
		InvolvedObject: ev.InvolvedObject,
		LastTimestamp:  now,
		Message:        "(combined from similar events): " + ev.Message,
		Type:           ev.Type,
		Reason:         ev.Reason,
		Source:         ev.Source,
	}, logKey{aggregateKey: akey}
}

// observe is eventLogger.eventObserve: a repeat of an event still in the
// cache takes its name, resource version and first time, and a count one
// higher, sent as upstream's strategic merge patch.
func (c *correlator) observe(ev *corev1.Event, key logKey) (*corev1.Event, []byte, error) {
	var (
		patch []byte
		err   error
	)
	last := c.logs.touch(key)
	if last.count > 0 {
		ev.Name = last.name
		ev.ResourceVersion = last.resourceVersion
		ev.FirstTimestamp = last.firstTimestamp
		ev.Count = int32(last.count) + 1

		old := *ev
		old.Count = 0
		old.LastTimestamp = metav1.NewTime(time.Unix(0, 0))
		old.Message = ""
		newData, _ := json.Marshal(ev)
		oldData, _ := json.Marshal(&old)
		patch, err = strategicpatch.CreateTwoWayMergePatch(oldData, newData, ev)
	}
	*last = logOf(ev)
	return ev, patch, err
}

// updateState is EventCorrelator.UpdateState: the stored event, as the API
// answered, is the last observation of its key.
func (c *correlator) updateState(stored *corev1.Event) {
	// Usually the key observe has just touched: the stored event is the
	// observed one, with its resource version.
	*c.logs.touchFront(eventKeyOf(stored)) = logOf(stored)
}

func logOf(e *corev1.Event) eventLog {
	return eventLog{count: uint(e.Count), firstTimestamp: e.FirstTimestamp, name: e.Name, resourceVersion: e.ResourceVersion}
}
