// The shared protocol's vocabulary (`PromiseValue`, `PromiseState`, `Thenable`) lives in
// `SharedPromiseTypes`, which every design re-exports; `import PromiseInterface` keeps naming it.
@_exported public import SharedPromiseTypes
