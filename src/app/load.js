// Loads a module of the page's own origin and starts its WebAssembly: the later panels (app/later.rs).
// The promise gives the module's exports, or fails if either file could not be fetched or started.
export async function load(js, wasm) {
  const module = await import(js);
  await module.default({ module_or_path: wasm });
  return module;
}
