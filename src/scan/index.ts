// Public surface of src/scan (owners add their exports here).
export {};
