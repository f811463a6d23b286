// Package argo is the part of Argo Rollouts' API (argoproj.io/v1alpha1)
// that rollscope reads: Rollouts and AnalysisRuns, with the JSON field
// names of Argo's own types (pkg/apis/rollouts/v1alpha1 at v1.10), so a
// Rollout read through the dynamic client decodes into them unchanged.
//
// rollscope keeps its own copy of these types rather than import Argo's
// module: the product needs a few dozen fields, not Argo's dependencies.
// Fields rollscope does not model (traffic routers, experiments, step
// plugins) are kept raw, so the console can say what it does not show.
package argo

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// GroupVersion is where Argo serves its kinds.
var GroupVersion = schema.GroupVersion{Group: "argoproj.io", Version: "v1alpha1"}

// Resources of the kinds rollscope reads.
var (
	Rollouts          = GroupVersion.WithResource("rollouts")
	AnalysisRuns      = GroupVersion.WithResource("analysisruns")
	AnalysisTemplates = GroupVersion.WithResource("analysistemplates")
	// ClusterAnalysisTemplates are cluster-scoped AnalysisTemplates.
	ClusterAnalysisTemplates = GroupVersion.WithResource("clusteranalysistemplates")
)

// Labels and annotations Argo's controller writes.
const (
	// PodTemplateHashLabel is Argo's pod-template-hash, on ReplicaSets and
	// pods (Deployments use pod-template-hash).
	PodTemplateHashLabel = "rollouts-pod-template-hash"
	// RevisionAnnotation is a Rollout's and its ReplicaSets' revision.
	RevisionAnnotation = "rollout.argoproj.io/revision"
)

// Rollout is argoproj.io/v1alpha1 Rollout.
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RolloutSpec   `json:"spec"`
	Status            RolloutStatus `json:"status,omitempty"`
}

// RolloutList is a list of Rollouts.
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Rollout `json:"items"`
}

type RolloutSpec struct {
	Replicas                *int32                 `json:"replicas,omitempty"`
	Selector                *metav1.LabelSelector  `json:"selector"`
	Template                corev1.PodTemplateSpec `json:"template"`
	WorkloadRef             *ObjectRef             `json:"workloadRef,omitempty"`
	MinReadySeconds         int32                  `json:"minReadySeconds,omitempty"`
	Strategy                RolloutStrategy        `json:"strategy"`
	RevisionHistoryLimit    *int32                 `json:"revisionHistoryLimit,omitempty"`
	Paused                  bool                   `json:"paused,omitempty"`
	ProgressDeadlineSeconds *int32                 `json:"progressDeadlineSeconds,omitempty"`
	ProgressDeadlineAbort   bool                   `json:"progressDeadlineAbort,omitempty"`
	RestartAt               *metav1.Time           `json:"restartAt,omitempty"`
}

// ObjectRef is a workloadRef: the Deployment whose template the Rollout
// runs.
type ObjectRef struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name,omitempty"`
	ScaleDown  string `json:"scaleDown,omitempty"`
}

type RolloutStrategy struct {
	BlueGreen *BlueGreenStrategy `json:"blueGreen,omitempty"`
	Canary    *CanaryStrategy    `json:"canary,omitempty"`
	// Unknown are the strategy's fields that are neither canary nor
	// blueGreen (a typo, a newer Argo's strategy), kept so that the
	// manifest check can name them (strategy.go).
	Unknown map[string]json.RawMessage `json:"-"`
}

type BlueGreenStrategy struct {
	ActiveService         string              `json:"activeService"`
	PreviewService        string              `json:"previewService,omitempty"`
	PreviewReplicaCount   *int32              `json:"previewReplicaCount,omitempty"`
	AutoPromotionEnabled  *bool               `json:"autoPromotionEnabled,omitempty"`
	AutoPromotionSeconds  int32               `json:"autoPromotionSeconds,omitempty"`
	MaxUnavailable        *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	ScaleDownDelaySeconds *int32              `json:"scaleDownDelaySeconds,omitempty"`
	PrePromotionAnalysis  *RolloutAnalysis    `json:"prePromotionAnalysis,omitempty"`
	PostPromotionAnalysis *RolloutAnalysis    `json:"postPromotionAnalysis,omitempty"`
	// AbortScaleDownDelaySeconds is how long an aborted update's preview
	// ReplicaSet stays up (30 s when unset, for ever at 0), and
	// ScaleDownDelayRevisionLimit how many old ReplicaSets wait out the
	// scale-down delay at once.
	AbortScaleDownDelaySeconds  *int32 `json:"abortScaleDownDelaySeconds,omitempty"`
	ScaleDownDelayRevisionLimit *int32 `json:"scaleDownDelayRevisionLimit,omitempty"`
}

type CanaryStrategy struct {
	CanaryService         string              `json:"canaryService,omitempty"`
	StableService         string              `json:"stableService,omitempty"`
	Steps                 []CanaryStep        `json:"steps,omitempty"`
	MaxUnavailable        *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge              *intstr.IntOrString `json:"maxSurge,omitempty"`
	Analysis              *RolloutAnalysis    `json:"analysis,omitempty"`
	ScaleDownDelaySeconds *int32              `json:"scaleDownDelaySeconds,omitempty"`
	DynamicStableScale    bool                `json:"dynamicStableScale,omitempty"`
	MinPodsPerReplicaSet  *int32              `json:"minPodsPerReplicaSet,omitempty"`
	// TrafficRouting is kept raw: rollscope models the basic canary (no
	// router) and says so when a Rollout has one.
	TrafficRouting json.RawMessage `json:"trafficRouting,omitempty"`
}

// CanaryStep is one step; Experiment and Plugin are shown, not driven.
type CanaryStep struct {
	SetWeight      *int32           `json:"setWeight,omitempty"`
	Pause          *RolloutPause    `json:"pause,omitempty"`
	Analysis       *RolloutAnalysis `json:"analysis,omitempty"`
	SetCanaryScale *SetCanaryScale  `json:"setCanaryScale,omitempty"`
	Experiment     json.RawMessage  `json:"experiment,omitempty"`
	SetHeaderRoute json.RawMessage  `json:"setHeaderRoute,omitempty"`
	SetMirrorRoute json.RawMessage  `json:"setMirrorRoute,omitempty"`
	Plugin         json.RawMessage  `json:"plugin,omitempty"`
}

// RolloutPause without a Duration waits for a promote.
type RolloutPause struct {
	Duration *intstr.IntOrString `json:"duration,omitempty"`
}

type SetCanaryScale struct {
	Weight             *int32 `json:"weight,omitempty"`
	Replicas           *int32 `json:"replicas,omitempty"`
	MatchTrafficWeight bool   `json:"matchTrafficWeight,omitempty"`
}

type RolloutAnalysis struct {
	Templates []AnalysisTemplateRef `json:"templates,omitempty"`
	Args      []AnalysisRunArgument `json:"args,omitempty"`
	// StartingStep is a background analysis's first step.
	StartingStep *int32 `json:"startingStep,omitempty"`
}

type AnalysisTemplateRef struct {
	TemplateName string `json:"templateName"`
	ClusterScope *bool  `json:"clusterScope,omitempty"`
}

type AnalysisRunArgument struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	// ValueFrom is where a Rollout's analysis argument takes its value:
	// the pod-template hash of the stable or the latest ReplicaSet, or a
	// field of the Rollout.
	ValueFrom *ArgumentValueFrom `json:"valueFrom,omitempty"`
}

type ArgumentValueFrom struct {
	// PodTemplateHashValue is "Stable" or "Latest".
	PodTemplateHashValue *string `json:"podTemplateHashValue,omitempty"`
	FieldRef             *struct {
		FieldPath string `json:"fieldPath"`
	} `json:"fieldRef,omitempty"`
}

// AnalysisTemplate is argoproj.io/v1alpha1 AnalysisTemplate: the metrics
// an analysis step or a background analysis runs, and the arguments they
// take.
type AnalysisTemplate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              AnalysisTemplateSpec `json:"spec"`
}

type AnalysisTemplateSpec struct {
	Metrics []Metric   `json:"metrics"`
	Args    []Argument `json:"args,omitempty"`
	// DryRun and MeasurementRetention are kept raw: rollscope says it
	// does not model them.
	DryRun               json.RawMessage `json:"dryRun,omitempty"`
	MeasurementRetention json.RawMessage `json:"measurementRetention,omitempty"`
}

// Argument is a template's argument: a default value, or none (the
// analysis that uses the template must give one).
type Argument struct {
	Name      string             `json:"name"`
	Value     *string            `json:"value,omitempty"`
	ValueFrom *ArgumentValueFrom `json:"valueFrom,omitempty"`
}

type PauseReason string

const (
	PauseReasonInconclusiveAnalysis   PauseReason = "InconclusiveAnalysisRun"
	PauseReasonInconclusiveExperiment PauseReason = "InconclusiveExperiment"
	PauseReasonCanaryPauseStep        PauseReason = "CanaryPauseStep"
	PauseReasonBlueGreenPause         PauseReason = "BlueGreenPause"
)

type PauseCondition struct {
	Reason    PauseReason `json:"reason"`
	StartTime metav1.Time `json:"startTime"`
}

type RolloutPhase string

const (
	RolloutPhaseHealthy     RolloutPhase = "Healthy"
	RolloutPhaseDegraded    RolloutPhase = "Degraded"
	RolloutPhaseProgressing RolloutPhase = "Progressing"
	RolloutPhasePaused      RolloutPhase = "Paused"
)

type RolloutStatus struct {
	Abort              bool               `json:"abort,omitempty"`
	PauseConditions    []PauseCondition   `json:"pauseConditions,omitempty"`
	ControllerPause    bool               `json:"controllerPause,omitempty"`
	AbortedAt          *metav1.Time       `json:"abortedAt,omitempty"`
	CurrentPodHash     string             `json:"currentPodHash,omitempty"`
	CurrentStepHash    string             `json:"currentStepHash,omitempty"`
	Replicas           int32              `json:"replicas,omitempty"`
	UpdatedReplicas    int32              `json:"updatedReplicas,omitempty"`
	ReadyReplicas      int32              `json:"readyReplicas,omitempty"`
	AvailableReplicas  int32              `json:"availableReplicas,omitempty"`
	CurrentStepIndex   *int32             `json:"currentStepIndex,omitempty"`
	CollisionCount     *int32             `json:"collisionCount,omitempty"`
	ObservedGeneration string             `json:"observedGeneration,omitempty"`
	Conditions         []RolloutCondition `json:"conditions,omitempty"`
	Canary             CanaryStatus       `json:"canary,omitempty"`
	BlueGreen          BlueGreenStatus    `json:"blueGreen,omitempty"`
	HPAReplicas        int32              `json:"HPAReplicas,omitempty"`
	Selector           string             `json:"selector,omitempty"`
	StableRS           string             `json:"stableRS,omitempty"`
	RestartedAt        *metav1.Time       `json:"restartedAt,omitempty"`
	PromoteFull        bool               `json:"promoteFull,omitempty"`
	Phase              RolloutPhase       `json:"phase,omitempty"`
	Message            string             `json:"message,omitempty"`
	// WorkloadObservedGeneration is the workloadRef Deployment's
	// generation the controller last saw.
	WorkloadObservedGeneration string `json:"workloadObservedGeneration,omitempty"`
}

type BlueGreenStatus struct {
	PreviewSelector                string                    `json:"previewSelector,omitempty"`
	ActiveSelector                 string                    `json:"activeSelector,omitempty"`
	ScaleUpPreviewCheckPoint       bool                      `json:"scaleUpPreviewCheckPoint,omitempty"`
	PrePromotionAnalysisRunStatus  *RolloutAnalysisRunStatus `json:"prePromotionAnalysisRunStatus,omitempty"`
	PostPromotionAnalysisRunStatus *RolloutAnalysisRunStatus `json:"postPromotionAnalysisRunStatus,omitempty"`
}

type CanaryStatus struct {
	CurrentStepAnalysisRunStatus       *RolloutAnalysisRunStatus `json:"currentStepAnalysisRunStatus,omitempty"`
	CurrentBackgroundAnalysisRunStatus *RolloutAnalysisRunStatus `json:"currentBackgroundAnalysisRunStatus,omitempty"`
	CurrentExperiment                  string                    `json:"currentExperiment,omitempty"`
}

type RolloutAnalysisRunStatus struct {
	Name    string        `json:"name"`
	Status  AnalysisPhase `json:"status"`
	Message string        `json:"message,omitempty"`
}

type RolloutConditionType string

const (
	InvalidSpec           RolloutConditionType = "InvalidSpec"
	RolloutAvailable      RolloutConditionType = "Available"
	RolloutProgressing    RolloutConditionType = "Progressing"
	RolloutReplicaFailure RolloutConditionType = "ReplicaFailure"
	RolloutPaused         RolloutConditionType = "Paused"
	RolloutCompleted      RolloutConditionType = "Completed"
	RolloutHealthy        RolloutConditionType = "Healthy"
)

type RolloutCondition struct {
	Type               RolloutConditionType   `json:"type"`
	Status             corev1.ConditionStatus `json:"status"`
	LastUpdateTime     metav1.Time            `json:"lastUpdateTime"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime"`
	Reason             string                 `json:"reason"`
	Message            string                 `json:"message"`
}

// AnalysisRun is argoproj.io/v1alpha1 AnalysisRun: the measurements that
// decide a canary step or a promotion.
type AnalysisRun struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              AnalysisRunSpec   `json:"spec"`
	Status            AnalysisRunStatus `json:"status,omitempty"`
}

// AnalysisRunList is a list of AnalysisRuns.
type AnalysisRunList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []AnalysisRun `json:"items"`
}

type AnalysisRunSpec struct {
	Metrics   []Metric              `json:"metrics"`
	Args      []AnalysisRunArgument `json:"args,omitempty"`
	Terminate bool                  `json:"terminate,omitempty"`
}

// Metric is one measured quantity; its provider is kept raw (rollscope
// names the provider, it does not query it).
type Metric struct {
	Name                  string              `json:"name"`
	Interval              string              `json:"interval,omitempty"`
	InitialDelay          string              `json:"initialDelay,omitempty"`
	Count                 *intstr.IntOrString `json:"count,omitempty"`
	SuccessCondition      string              `json:"successCondition,omitempty"`
	FailureCondition      string              `json:"failureCondition,omitempty"`
	FailureLimit          *intstr.IntOrString `json:"failureLimit,omitempty"`
	InconclusiveLimit     *intstr.IntOrString `json:"inconclusiveLimit,omitempty"`
	ConsecutiveErrorLimit *intstr.IntOrString `json:"consecutiveErrorLimit,omitempty"`
	// ConsecutiveSuccessLimit ends the metric Successful after that many
	// successes in a row (Argo v1.10; 0 or unset: not used).
	ConsecutiveSuccessLimit *intstr.IntOrString `json:"consecutiveSuccessLimit,omitempty"`
	Provider                json.RawMessage     `json:"provider,omitempty"`
}

type AnalysisPhase string

// Completed is Argo's AnalysisPhase.Completed: the phase is a verdict
// (Successful, Failed, Error or Inconclusive).
func (p AnalysisPhase) Completed() bool {
	switch p {
	case AnalysisPhaseSuccessful, AnalysisPhaseFailed, AnalysisPhaseError, AnalysisPhaseInconclusive:
		return true
	}
	return false
}

const (
	AnalysisPhasePending      AnalysisPhase = "Pending"
	AnalysisPhaseRunning      AnalysisPhase = "Running"
	AnalysisPhaseSuccessful   AnalysisPhase = "Successful"
	AnalysisPhaseFailed       AnalysisPhase = "Failed"
	AnalysisPhaseError        AnalysisPhase = "Error"
	AnalysisPhaseInconclusive AnalysisPhase = "Inconclusive"
)

type AnalysisRunStatus struct {
	Phase         AnalysisPhase  `json:"phase"`
	Message       string         `json:"message,omitempty"`
	MetricResults []MetricResult `json:"metricResults,omitempty"`
	StartedAt     *metav1.Time   `json:"startedAt,omitempty"`
	RunSummary    RunSummary     `json:"runSummary,omitempty"`
	CompletedAt   *metav1.Time   `json:"completedAt,omitempty"`
}

type MetricResult struct {
	Name               string        `json:"name"`
	Phase              AnalysisPhase `json:"phase"`
	Measurements       []Measurement `json:"measurements,omitempty"`
	Message            string        `json:"message,omitempty"`
	Count              int32         `json:"count,omitempty"`
	Successful         int32         `json:"successful,omitempty"`
	Failed             int32         `json:"failed,omitempty"`
	Inconclusive       int32         `json:"inconclusive,omitempty"`
	Error              int32         `json:"error,omitempty"`
	ConsecutiveError   int32         `json:"consecutiveError,omitempty"`
	ConsecutiveSuccess int32         `json:"consecutiveSuccess,omitempty"`
}

type Measurement struct {
	Phase      AnalysisPhase `json:"phase"`
	Message    string        `json:"message,omitempty"`
	StartedAt  *metav1.Time  `json:"startedAt,omitempty"`
	FinishedAt *metav1.Time  `json:"finishedAt,omitempty"`
	Value      string        `json:"value,omitempty"`
}

type RunSummary struct {
	Count        int32 `json:"count,omitempty"`
	Successful   int32 `json:"successful,omitempty"`
	Failed       int32 `json:"failed,omitempty"`
	Inconclusive int32 `json:"inconclusive,omitempty"`
	Error        int32 `json:"error,omitempty"`
}

// The deep copies go through JSON: these objects are few (a Rollout per
// service, a handful of AnalysisRuns), and one rule for every field is
// surer than a hand-written copy per field.
func jsonCopy[T any](in *T) *T {
	if in == nil {
		return nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		panic("argo: a decoded object does not encode: " + err.Error())
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic("argo: an encoded object does not decode: " + err.Error())
	}
	return out
}

func (r *Rollout) DeepCopy() *Rollout                      { return jsonCopy(r) }
func (r *Rollout) DeepCopyObject() runtime.Object          { return r.DeepCopy() }
func (l *RolloutList) DeepCopyObject() runtime.Object      { return jsonCopy(l) }
func (a *AnalysisRun) DeepCopy() *AnalysisRun              { return jsonCopy(a) }
func (a *AnalysisRun) DeepCopyObject() runtime.Object      { return a.DeepCopy() }
func (l *AnalysisRunList) DeepCopyObject() runtime.Object  { return jsonCopy(l) }
func (a *AnalysisTemplate) DeepCopy() *AnalysisTemplate    { return jsonCopy(a) }
func (a *AnalysisTemplate) DeepCopyObject() runtime.Object { return a.DeepCopy() }

// DeepCopy is the status's own copy, as every API status type has one (a
// rehearsal's copy of a workload takes its status so).
func (s *RolloutStatus) DeepCopy() *RolloutStatus { return jsonCopy(s) }

// DeepCopy is a copy of s sharing nothing with it.
func (s *AnalysisRunStatus) DeepCopy() *AnalysisRunStatus { return jsonCopy(s) }
