import { createServer } from "node:http";

/** A local stand-in for the weather API, used only to record the cassette (`npm run record:weather`). */
export async function startFakeWeatherApi(port = 45871) {
  const server = createServer((request, response) => {
    const city = new URL(request.url ?? "/", "http://localhost").searchParams.get("city") ?? "";
    const weather: Record<string, { tempC: number; sky: string }> = { Paris: { tempC: 21, sky: "clear" }, Oslo: { tempC: 4, sky: "snow" } };
    const found = weather[city];
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(found ? { city, ...found } : { error: `no city ${city}` }));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
