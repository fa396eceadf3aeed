import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PRIMARY_COLOR } from '../../ui/theme';
import { fillDays, todayUtc, totalViews, type DayPoint } from '../../models/stats-series';

/** Views per day over the last 30 days (viewsByDay of /model/all). Loaded lazily: recharts is large. */
export function ModelViewsChart({ name, viewsByDay }: { name: string; viewsByDay: DayPoint[] | undefined }) {
  const series = fillDays(viewsByDay, todayUtc());
  const total = totalViews(series);
  return (
    <figure className="views-chart" aria-label={`${name}: views per day`}>
      <div role="img" aria-label={`${name}: ${total} views in the last 30 days`} className="views-chart-plot">
        <ResponsiveContainer width="100%" height={160}>
          <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -24 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="day"
              tickFormatter={(d: string) => d.slice(5)}
              tick={{ fontSize: 11 }}
              minTickGap={24}
            />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Line type="monotone" dataKey="views" stroke={PRIMARY_COLOR} strokeWidth={2} dot={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="views-chart-caption">Views over the last 30 days</figcaption>
    </figure>
  );
}
