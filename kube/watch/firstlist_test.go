package watch_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/kube/watch"
	"rollscope/model/cluster"
)

// slowAPIServer serves pods as a kube-apiserver's watch cache does, over
// JSON: a list at resourceVersion 0 whole (the limit ignored), any other
// page by page; each page takes perPage, and perPod more for each pod it
// holds, and a whole list takes longer than any tight request timeout.
// Every other kind is an empty list, and watches stay open without an
// event.
type slowAPIServer struct {
	pods    int
	perPage time.Duration
	perPod  time.Duration
	whole   time.Duration

	// stream serves the first list as a stream (WatchList), a page's worth
	// of pods every perPage, rather than refusing it.
	stream bool

	mu      sync.Mutex
	lists   int // pod list requests answered
	streams int // pod lists streamed to their end
	wholes  int // pod lists asked for whole
}

const podsPath = "/api/v1/namespaces/big/pods"

func (s *slowAPIServer) streamPods(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	for i := range s.pods {
		if i%2000 == 0 {
			w.(http.Flusher).Flush()
			select {
			case <-time.After(s.perPage):
			case <-r.Context().Done():
				return
			}
		}
		pod := corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "big", Name: fmt.Sprintf("web-%05d", i), ResourceVersion: "7"}}
		_ = enc.Encode(map[string]any{"type": "ADDED", "object": pod})
	}
	end := corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{ResourceVersion: "7", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
	_ = enc.Encode(map[string]any{"type": "BOOKMARK", "object": end})
	w.(http.Flusher).Flush()
	s.mu.Lock()
	s.streams++
	s.mu.Unlock()
	<-r.Context().Done()
}

func (s *slowAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "application/json")
	if q.Get("watch") == "true" {
		if q.Get("sendInitialEvents") == "true" && r.URL.Path == podsPath && s.stream {
			s.streamPods(w, r)
			return
		}
		if q.Get("sendInitialEvents") == "true" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"BadRequest","code":400,"message":"sendInitialEvents is not supported"}`))
			return
		}
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	if r.URL.Path != podsPath {
		_, _ = w.Write([]byte(`{"metadata":{"resourceVersion":"7"},"items":[]}`))
		return
	}
	from, _ := strconv.Atoi(q.Get("continue"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	took := s.perPage + time.Duration(min(limit, s.pods-from))*s.perPod
	if limit == 0 || q.Get("resourceVersion") == "0" {
		limit, took = s.pods, s.whole
		s.mu.Lock()
		s.wholes++
		s.mu.Unlock()
	}
	select {
	case <-time.After(took):
	case <-r.Context().Done():
		return
	}
	list := corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}}
	for i := from; i < min(from+limit, s.pods); i++ {
		list.Items = append(list.Items, corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "big", Name: fmt.Sprintf("web-%05d", i), ResourceVersion: "7"}})
	}
	if from+limit < s.pods {
		list.Continue = strconv.Itoa(from + limit)
	}
	s.mu.Lock()
	s.lists++
	s.mu.Unlock()
	_ = json.NewEncoder(w).Encode(list)
}

// TestTheFirstListOutlastsATightRequestTimeout: 14,000 pods (10,000 paged)
// whose whole list takes 5 s, with --request-timeout 1s (2s paged), which
// would cut off a request that long — the stream of a WatchList, or a list
// of any version, which the API server's watch cache serves whole — reach
// the console: streamed, in one request that the timeout does not cut, or,
// from a server that does not stream, listed in pages, never asked for
// whole. While they come, the status says how many have come.
func TestTheFirstListOutlastsATightRequestTimeout(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "streamed", false: "paged"}[stream], func(t *testing.T) {
			api, timeout := &slowAPIServer{pods: 14000, perPage: 300 * time.Millisecond, whole: 5 * time.Second, stream: true}, time.Second
			if !stream {
				// A page of 2,000 pods takes this server 0.8-0.9 s to send
				// under the race detector on a busy machine: 2 s leaves it
				// room (a page the timeout cuts is the next test's).
				api, timeout = &slowAPIServer{pods: 10000, perPage: 250 * time.Millisecond, whole: 5 * time.Second}, 2*time.Second
			}
			got := watchSlowly(t, api, timeout)
			api.mu.Lock()
			defer api.mu.Unlock()
			if stream && (api.streams != 1 || api.lists != 0) {
				t.Errorf("the pods were streamed %d times and listed %d times, want one stream and no list: the timeout cut the stream", api.streams, api.lists)
			}
			if pages := (api.pods + 1999) / 2000; !stream && (api.lists < pages || api.wholes > 0) {
				t.Errorf("the pods were listed in %d requests, %d of them for the whole list, want pages only (at least %d)", api.lists, api.wholes, pages)
			}
			checkProgress(t, got, api.pods)
		})
	}
}

// A server that takes longer than the request timeout to send even one page
// of 2,000 pods (a millisecond a pod, as a slow etcd behind it might) still
// gets every pod to the console: the pages that outlast the timeout are
// asked for again smaller, instead of the list starting over with the same
// pages, cut off again, forever.
func TestPagesThatOutlastTheRequestTimeoutAreAskedForSmaller(t *testing.T) {
	api := &slowAPIServer{pods: 2400, perPage: 50 * time.Millisecond, perPod: time.Millisecond, whole: 5 * time.Second}
	got := watchSlowly(t, api, time.Second)
	api.mu.Lock()
	defer api.mu.Unlock()
	if api.wholes > 0 {
		t.Errorf("the whole list was asked for %d times", api.wholes)
	}
	checkProgress(t, got, api.pods)
}

// watchSlowly watches the namespace "big" of api with a request timeout
// until every pod has come and the picture is synced.
func watchSlowly(t *testing.T, api *slowAPIServer, timeout time.Duration) []cluster.Batch {
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close) // after the bridge's watches, which Close waits for
	cfg := &rest.Config{Host: srv.URL, Timeout: timeout, QPS: 100, Burst: 100}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, client, watch.Scope{Namespace: "big"}, watch.Options{Config: cfg})
	eventually(t, "every pod listed and the picture synced", func() bool {
		batches, _ := got.snapshot()
		return len(batches) > 0 && batches[len(batches)-1].Watch.Synced && podsIn(batches) == api.pods
	})
	batches, _ := got.snapshot()
	return batches
}

// checkProgress: before the picture synced, some batch said how many pods
// had come, never more than there are. (Pods a batch holds before then are
// shown under the banner that says the picture is incomplete.)
func checkProgress(t *testing.T, batches []cluster.Batch, pods int) {
	t.Helper()
	progress := 0
	for _, b := range batches {
		if b.Watch.Synced {
			break
		}
		if b.Watch.Listing == "Pod" && b.Watch.ListedSoFar > 0 {
			if b.Watch.ListedSoFar > pods {
				t.Errorf("before the list ended the status said %d pods had come, of %d", b.Watch.ListedSoFar, pods)
			}
			progress++
		}
	}
	if progress == 0 {
		t.Errorf("no batch said how many pods had come while they were listed; statuses: %+v", statuses(batches))
	}
}

func podsIn(batches []cluster.Batch) int {
	n := 0
	for _, b := range batches {
		for _, o := range b.Objects {
			if _, ok := o.(*corev1.Pod); ok {
				n++
			}
		}
	}
	return n
}

func statuses(batches []cluster.Batch) []cluster.WatchStatus {
	out := make([]cluster.WatchStatus, len(batches))
	for i, b := range batches {
		out[i] = b.Watch
	}
	return out
}
