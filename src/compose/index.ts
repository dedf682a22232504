// Public surface of src/compose (owners add their exports here).
export {};
