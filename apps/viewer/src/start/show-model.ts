import type { EmbedFlag } from '@helix/shared/embed';
import { MSG } from '@helix/shared/messages';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { fetchModel, ModelLoadError } from '../load-model.ts';
import { hintedModelUrl } from '../model-hint.ts';
import type { ModelSource } from '../model-source.ts';
import type { ViewerParams } from '../params.ts';
import type * as SceneRuntimeModule from '../scene/scene-runtime.ts';
import type { Viewer3D } from '../scene/viewer-3d.ts';
import { h } from '../ui/dom.ts';
import { LoadingOverlay } from '../ui/overlays.ts';
import { applyBackground, type ViewerTestState } from '../viewer-state.ts';

type SceneRuntime = typeof SceneRuntimeModule;

/** The model on screen: its 3D view, the parsed glTF, the stage it is drawn in, its title. */
export interface ShownModel {
  viewer: Viewer3D;
  gltf: GLTF;
  stage: HTMLElement;
  loading: LoadingOverlay;
  title: string;
}

function modelTitle(source: ModelSource, gltf: GLTF): string {
  const extras = gltf.scene.userData as { title?: unknown };
  if (source.title) return source.title;
  if (typeof extras.title === 'string') return extras.title;
  const file = decodeURIComponent(new URL(source.glbUrl).pathname.split('/').pop() ?? 'Model');
  return file.replace(/\.(glb|gltf)$/i, '').replace(/[-_]+/g, ' ');
}

/**
 * The stage with the link's backdrop and the loading overlay; the model's file downloaded while
 * three.js arrives (on a share or embed page the document's preload has started it, model-hint.ts);
 * the 3D view made, the model parsed and set in it. Throws a ModelLoadError naming what failed.
 */
export async function showModel(
  app: HTMLElement,
  state: ViewerTestState,
  params: ViewerParams,
  source: ModelSource,
  flags: ReadonlySet<EmbedFlag>,
  sceneRuntime: Promise<SceneRuntime>,
): Promise<ShownModel> {
  const stage = h('div', { class: 'stage' });
  app.append(stage);
  applyBackground(stage, source.branding, flags, source.transparent);
  state.transparent = source.transparent;
  const loading = new LoadingOverlay(source.branding.loadingImage);
  app.append(loading.el);

  const download = fetchModel(hintedModelUrl(params.glb, source.glbUrl), (loaded, total) =>
    loading.progress(loaded, total),
  );
  download.catch(() => undefined); // awaited below

  const runtime = await sceneRuntime.catch((e: unknown) => {
    throw new ModelLoadError('network', 0, (e as Error)?.message);
  });
  let viewer: Viewer3D;
  try {
    viewer = new runtime.Viewer3D(stage);
  } catch (e) {
    throw new ModelLoadError('webgl', 0, (e as Error)?.message);
  }

  const buffer = await download;
  performance.mark('viewer:fetched');
  loading.stage('Preparing model…');
  const gltf = await runtime.parseGltf(buffer, source.glbUrl);
  performance.mark('viewer:parsed');
  // The model's shaders compiled before its first frame, without holding the page where the browser
  // can say when they are done (KHR_parallel_shader_compile): the first render would otherwise wait for
  // them in one task (about 300 ms at a slow tablet's speed), and a pupil's first tap with it.
  await viewer.renderer.compileAsync(gltf.scene, viewer.camera, viewer.scene).catch(() => undefined);
  performance.mark('viewer:compiled');

  viewer.setModel(gltf, { center: flags.has('center_model') });
  state.centred = viewer.centred;
  state.partNames = viewer.parts.map((p) => p.name);
  viewer.onRender(() => {
    state.cameraDistance = viewer.camera.position.distanceTo(viewer.controls.target);
    state.cameraPosition = viewer.camera.position.toArray();
    state.cameraTarget = viewer.controls.target.toArray();
    state.highlighted = viewer.highlightedPart?.name ?? null;
    state.selected = state.highlighted;
    state.hiddenParts = viewer.parts.filter((p) => !p.object.visible).map((p) => p.name);
    state.flights = viewer.flights;
  });
  state.reducedMotion = viewer.reducedMotion;
  document.body.dataset.reducedMotion = String(viewer.reducedMotion);
  const title = modelTitle(source, gltf);
  // The 3D view: named after the model, with the keys described for screen readers.
  const keysHelp = h('p', { id: 'viewer-keys-help', class: 'visually-hidden' }, MSG.viewerKeysHelp);
  stage.append(keysHelp);
  viewer.renderer.domElement.setAttribute('aria-label', `${title}: 3D model`);
  viewer.renderer.domElement.setAttribute('aria-describedby', keysHelp.id);
  document.body.dataset.centred = String(viewer.centred);
  return { viewer, gltf, stage, loading, title };
}
