// `import BatchedPromises` alone makes the shared types of its public API nameable: `PromiseValue`,
// `PromiseState` and `Thenable`. They are re-exported rather than aliased: two aliases of one type,
// from two imported modules, are ambiguous where a type is an expression (`[PromiseValue].self`).
@_exported public import SharedPromiseTypes
