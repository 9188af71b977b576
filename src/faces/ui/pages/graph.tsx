import {forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationLinkDatum, type SimulationNodeDatum} from 'd3-force'
import {useEffect, useMemo, useRef, useState} from 'react'
import {api} from '../api.js'
import {Empty, Show} from '../components.js'
import {hrefFor, useApp, useAsync} from '../hooks.js'
import {type Graph, type GraphNode, TYPES} from '../types.js'

const WIDTH = 900
const HEIGHT = 600

interface SimNode extends SimulationNodeDatum {
  id: string
  node: GraphNode
  r: number
}
type SimLink = SimulationLinkDatum<SimNode> & {relation: string}

export function GraphPage() {
  const {repo} = useApp()
  const [limit, setLimit] = useState(200)
  const graph = useAsync((signal) => api<Graph>('/api/mem/graph', {query: {repo, limit}, signal}), [repo, limit])
  return (
    <div className="page graph">
      <h1>Knowledge graph</h1>
      <div className="toolbar">
        <label htmlFor="graph-limit">Nodes</label>
        <select id="graph-limit" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
          {[50, 100, 200, 500].map((n) => (
            <option key={n} value={n}>
              top {n}
            </option>
          ))}
        </select>
      </div>
      <Show value={graph} loadingLabel="Loading the graph…">
        {(g) => (g.nodes.length === 0 ? <Empty>No memories to draw yet.</Empty> : <ForceGraph graph={g} />)}
      </Show>
    </div>
  )
}

/** A link end as d3 leaves it: the id before the layout starts, the node after. */
function endId(end: string | number | SimNode): string {
  return typeof end === 'object' ? end.id : String(end)
}

function relationClass(relation: string): string {
  if (relation === 'derived' || relation === 'supersedes' || relation === 'updates' || relation === 'similar') return relation
  return relation.startsWith('tag:') ? 'tag' : 'link'
}

const RELATION_NAMES: Record<string, string> = {
  link: 'memory link',
  tag: 'shared tag',
  similar: 'similar text',
  updates: 'updates (newer → older)',
}

/**
 * d3-force lays the graph out; positions are written straight to the SVG elements on each tick
 * (no React render per tick), so 200 nodes stay smooth. Wheel or the buttons zoom, dragging the
 * background pans, clicking a node (or Enter on it) opens the memory.
 */
function ForceGraph({graph}: {graph: Graph}) {
  const {navigate} = useApp()
  const svgRef = useRef<SVGSVGElement>(null)
  const viewRef = useRef<SVGGElement>(null)
  const nodeRefs = useRef(new Map<string, SVGGElement>())
  const linkRefs = useRef<Array<SVGLineElement | null>>([])
  const transform = useRef({x: 0, y: 0, k: 1})
  const [settled, setSettled] = useState(false)
  // the node under the pointer (or keyboard focus): it and its neighbours stand out, with labels
  const [focused, setFocused] = useState<string | null>(null)

  const {nodes, links} = useMemo(() => {
    const nodes: SimNode[] = graph.nodes.map((n) => ({id: n.id, node: n, r: 4 + Math.max(0, Math.min(1, n.importance)) * 10}))
    const ids = new Set(nodes.map((n) => n.id))
    const links: SimLink[] = graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e) => ({source: e.from, target: e.to, relation: e.relation}))
    return {nodes, links}
  }, [graph])

  const applyView = () => {
    const t = transform.current
    viewRef.current?.setAttribute('transform', `translate(${t.x},${t.y}) scale(${t.k})`)
  }

  useEffect(() => {
    setSettled(false)
    const sim = forceSimulation(nodes)
      .force('link', forceLink<SimNode, SimLink>(links).id((d) => d.id).distance(40))
      .force('charge', forceManyBody().strength(-60))
      .force('center', forceCenter(WIDTH / 2, HEIGHT / 2))
      .force('collide', forceCollide<SimNode>().radius((d) => d.r + 2))
      // unlinked memories are pulled gently to the middle instead of drifting out of view
      .force('x', forceX(WIDTH / 2).strength(0.05))
      .force('y', forceY(HEIGHT / 2).strength(0.08))
      // settle in ~2.5 s of animation rather than d3's default ~5 s
      .alphaDecay(0.045)
      .stop()
    const draw = () => {
      for (const n of nodes) nodeRefs.current.get(n.id)?.setAttribute('transform', `translate(${n.x!.toFixed(1)},${n.y!.toFixed(1)})`)
      links.forEach((l, i) => {
        const el = linkRefs.current[i]
        const s = l.source as SimNode
        const t = l.target as SimNode
        if (!el) return
        el.setAttribute('x1', s.x!.toFixed(1))
        el.setAttribute('y1', s.y!.toFixed(1))
        el.setAttribute('x2', t.x!.toFixed(1))
        el.setAttribute('y2', t.y!.toFixed(1))
      })
    }
    // a few ticks before the first paint so nothing starts piled up in one spot
    sim.tick(30)
    draw()
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    const settle = () => {
      fit()
      setSettled(true)
    }
    if (reduced) {
      sim.tick(120)
      draw()
      settle()
      return () => void sim.stop()
    }
    sim.on('tick', draw).on('end', settle).restart()
    return () => void sim.stop()
    // fit is this render's, which sees these nodes; listing it would restart the simulation on every render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nodes, links])

  // wheel zoom around the pointer, background drag pans
  useEffect(() => {
    const svg = svgRef.current
    if (!svg) return
    const toSvg = (clientX: number, clientY: number) => {
      const rect = svg.getBoundingClientRect()
      return {x: ((clientX - rect.left) / rect.width) * WIDTH, y: ((clientY - rect.top) / rect.height) * HEIGHT}
    }
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      const p = toSvg(e.clientX, e.clientY)
      zoomAt(p.x, p.y, Math.exp(-e.deltaY * 0.0015))
    }
    let drag: {x: number; y: number; tx: number; ty: number; id: number} | null = null
    const onDown = (e: PointerEvent) => {
      if ((e.target as Element).closest('.node')) return
      const p = toSvg(e.clientX, e.clientY)
      drag = {x: p.x, y: p.y, tx: transform.current.x, ty: transform.current.y, id: e.pointerId}
      svg.setPointerCapture(e.pointerId)
      svg.classList.add('panning')
    }
    const onMove = (e: PointerEvent) => {
      if (!drag || e.pointerId !== drag.id) return
      const p = toSvg(e.clientX, e.clientY)
      transform.current.x = drag.tx + (p.x - drag.x)
      transform.current.y = drag.ty + (p.y - drag.y)
      applyView()
    }
    const onUp = (e: PointerEvent) => {
      if (drag && svg.hasPointerCapture(e.pointerId)) svg.releasePointerCapture(e.pointerId)
      drag = null
      svg.classList.remove('panning')
    }
    svg.addEventListener('wheel', onWheel, {passive: false})
    svg.addEventListener('pointerdown', onDown)
    svg.addEventListener('pointermove', onMove)
    svg.addEventListener('pointerup', onUp)
    svg.addEventListener('pointercancel', onUp)
    return () => {
      svg.removeEventListener('wheel', onWheel)
      svg.removeEventListener('pointerdown', onDown)
      svg.removeEventListener('pointermove', onMove)
      svg.removeEventListener('pointerup', onUp)
      svg.removeEventListener('pointercancel', onUp)
    }
    // zoomAt reads only refs: the listeners are bound once, as a drag in progress needs
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const zoomAt = (cx: number, cy: number, factor: number) => {
    const t = transform.current
    const k = Math.max(0.2, Math.min(8, t.k * factor))
    const f = k / t.k
    t.x = cx - (cx - t.x) * f
    t.y = cy - (cy - t.y) * f
    t.k = k
    applyView()
  }
  /** Scales and centres the view on the laid-out nodes (at most 1:1). */
  const fit = () => {
    if (nodes.length === 0) return
    let x0 = Infinity
    let y0 = Infinity
    let x1 = -Infinity
    let y1 = -Infinity
    for (const n of nodes) {
      x0 = Math.min(x0, n.x! - n.r)
      y0 = Math.min(y0, n.y! - n.r)
      x1 = Math.max(x1, n.x! + n.r)
      y1 = Math.max(y1, n.y! + n.r)
    }
    const pad = 20
    const k = Math.min(1, (WIDTH - 2 * pad) / Math.max(1, x1 - x0), (HEIGHT - 2 * pad) / Math.max(1, y1 - y0))
    transform.current = {k, x: WIDTH / 2 - ((x0 + x1) / 2) * k, y: HEIGHT / 2 - ((y0 + y1) / 2) * k}
    applyView()
  }

  const open = (id: string) => navigate('browse', {id})
  const near = useMemo(() => {
    const set = new Set<string>()
    if (!focused) return set
    set.add(focused)
    for (const l of links) {
      const [a, b] = [endId(l.source), endId(l.target)]
      if (a === focused) set.add(b)
      if (b === focused) set.add(a)
    }
    return set
  }, [focused, links])
  const focusedNode = focused ? nodes.find((n) => n.id === focused) : undefined
  const relations = [...new Set(links.map((l) => relationClass(l.relation)))]

  return (
    <div className="graph-wrap">
      <div className="toolbar" role="group" aria-label="Zoom">
        <button type="button" onClick={() => zoomAt(WIDTH / 2, HEIGHT / 2, 1.25)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoomAt(WIDTH / 2, HEIGHT / 2, 0.8)} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={fit}>
          Reset view
        </button>
        <span className="muted" role="status">
          {nodes.length} nodes, {links.length} edges{settled ? '' : ' · laying out…'}
        </span>
        {focusedNode ? (
          <span className="graph-focus" data-testid="graph-focus">
            {focusedNode.node.type}: {focusedNode.node.label} · {near.size - 1} neighbour{near.size === 2 ? '' : 's'}
          </span>
        ) : null}
      </div>
      <svg
        ref={svgRef}
        className={`graph-canvas${focused ? ' has-focus' : ''}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={`Knowledge graph: ${nodes.length} memories and ${links.length} relations. Each node is a link to its memory.`}
        data-testid="graph"
        data-node-count={nodes.length}
        data-edge-count={links.length}
        data-settled={settled}
      >
        <g ref={viewRef}>
          <g className="edges">
            {links.map((l, i) => (
              <line
                key={i}
                ref={(el) => {
                  linkRefs.current[i] = el
                }}
                className={`edge ${relationClass(l.relation)}${focused && (endId(l.source) === focused || endId(l.target) === focused) ? ' near' : ''}`}
              >
                <title>{l.relation}</title>
              </line>
            ))}
          </g>
          <g className="nodes">
            {nodes.map((n) => (
              <g
                key={n.id}
                ref={(el) => {
                  if (el) nodeRefs.current.set(n.id, el)
                  else nodeRefs.current.delete(n.id)
                }}
                className={`node type-${n.node.type.toLowerCase()}${near.has(n.id) ? (n.id === focused ? ' focused' : ' near') : ''}`}
                onMouseEnter={() => setFocused(n.id)}
                onMouseLeave={() => setFocused((f) => (f === n.id ? null : f))}
                onFocus={() => setFocused(n.id)}
                onBlur={() => setFocused((f) => (f === n.id ? null : f))}
                role="link"
                tabIndex={0}
                aria-label={`${n.node.type}: ${n.node.label}`}
                data-id={n.id}
                onClick={() => open(n.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault()
                    open(n.id)
                  }
                }}
              >
                <circle r={n.r} />
                <title>{`${n.node.type}: ${n.node.label}`}</title>
                {near.has(n.id) ? (
                  <text className="node-label" x={n.r + 3} y={4}>
                    {n.node.label.length > 48 ? `${n.node.label.slice(0, 47)}…` : n.node.label}
                  </text>
                ) : null}
              </g>
            ))}
          </g>
        </g>
      </svg>
      <div className="legend" aria-label="Legend">
        {TYPES.map((t) => (
          <span key={t} className="legend-item">
            <svg width="12" height="12" aria-hidden="true">
              <circle cx="6" cy="6" r="5" className={`swatch type-${t}`} />
            </svg>{' '}
            {t}
          </span>
        ))}
        {relations.map((r) => (
          <span key={r} className="legend-item">
            <svg width="24" height="12" aria-hidden="true">
              <line x1="0" y1="6" x2="24" y2="6" className={`edge ${r}`} />
            </svg>{' '}
            {RELATION_NAMES[r] ?? r}
          </span>
        ))}
        <span className="muted">Size = importance. Point at a node to see its neighbours. Drag to pan, wheel to zoom.</span>
      </div>
      <details className="node-list">
        <summary>Nodes as a list</summary>
        <ul>
          {nodes.map((n) => (
            <li key={n.id}>
              <a href={hrefFor('browse', {id: n.id})}>
                {n.node.type}: {n.node.label}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </div>
  )
}
