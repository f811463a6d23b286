package memapi

import (
	"io"
	"net/http"
	"strings"
	"sync"

	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	fakeappsv1 "k8s.io/client-go/kubernetes/typed/apps/v1/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	fakecorev1 "k8s.io/client-go/kubernetes/typed/core/v1/fake"
	policyv1client "k8s.io/client-go/kubernetes/typed/policy/v1"
	fakepolicyv1 "k8s.io/client-go/kubernetes/typed/policy/v1/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
)

// clientset is the cluster's kubernetes.Interface before directClient's
// shortcuts: client-go's fake typed clients of the groups the cluster
// serves (core/v1, apps/v1, policy/v1), every call answered by its
// reactors, and for every other group client-go's real typed clients on a
// transport that answers 404, as an API server answers for a group it does
// not serve. client-go's fake Clientset would link a fake of each of
// Kubernetes' fifty-odd group versions into every rollscope binary, several
// megabytes for the three served.
type clientset struct {
	kubernetes.Interface
	clienttesting.Fake
	discovery *fakediscovery.FakeDiscovery
}

var _ kubernetes.Interface = &clientset{}

func newClientset() *clientset {
	cs := &clientset{Interface: notServedClient()}
	cs.discovery = &fakediscovery.FakeDiscovery{Fake: &cs.Fake}
	return cs
}

func (c *clientset) Discovery() discovery.DiscoveryInterface { return c.discovery }

func (c *clientset) CoreV1() corev1client.CoreV1Interface {
	return &fakecorev1.FakeCoreV1{Fake: &c.Fake}
}

func (c *clientset) AppsV1() appsv1client.AppsV1Interface {
	return &fakeappsv1.FakeAppsV1{Fake: &c.Fake}
}

func (c *clientset) PolicyV1() policyv1client.PolicyV1Interface {
	return &fakepolicyv1.FakePolicyV1{Fake: &c.Fake}
}

// IsWatchListSemanticsUnSupported tells client-go's reflectors to list,
// then watch: the cluster's watches send no initial events.
func (c *clientset) IsWatchListSemanticsUnSupported() bool { return true }

// notServedClient is the typed clients of the groups the cluster does not
// serve; they hold no state, so every cluster shares them.
var notServedClient = sync.OnceValue(func() kubernetes.Interface {
	config := &rest.Config{Host: "http://embedded.invalid", RateLimiter: flowcontrol.NewFakeAlwaysRateLimiter()}
	cs, err := kubernetes.NewForConfigAndClient(config, &http.Client{Transport: notServed{}})
	if err != nil {
		panic("memapi: the typed clients of unserved groups: " + err.Error()) // a fixed, valid configuration
	}
	return cs
})

// notServed answers every request as an API server answers one for a
// resource it does not serve.
type notServed struct{}

func (notServed) RoundTrip(r *http.Request) (*http.Response, error) {
	const body = `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404}`
	return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body))}, nil
}
