import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session';
import { About } from './About';

/** `/`: a person's trees when signed in, otherwise what the service is. */
export function Home() {
  const { user } = useSession();
  const { route } = useLocation();
  useEffect(() => {
    if (user !== null) route('/trees', true);
  }, [user, route]);
  return user === null ? <About /> : null;
}
